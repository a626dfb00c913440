import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../apps/config/env.js';
import { createLogger } from '../../apps/api/logger.js';
import { startApi, type RunningApi } from '../../apps/api/server.js';
import { freshDatabase } from '../support/database.js';
import { waitFor } from '../support/site.js';

/**
 * The interactive API reference works with no internet (issue 19): Debian's Chromium, driven by
 * playwright-core over its DevTools protocol, opens `/docs` of a running API, and every request
 * the page makes stays on the API's own origin; the page then lists the operations of
 * `openapi.yaml`. A screenshot lands in `.test-run/docs-page.png`.
 */
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const screenshot = resolve('.test-run/docs-page.png');

let api: RunningApi;
let browser: Browser;

beforeAll(async () => {
  const config = loadConfig({ OPERATOR_TOKEN: 'o'.repeat(32), DATABASE_URL: await freshDatabase(), LISTEN_ADDRESS: '127.0.0.1:0' });
  api = await startApi({ config, log: createLogger('silent', 'docs') });
  await waitFor(async () => (await fetch(`${api.url}/readyz`)).status === 200);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

it('renders every operation of openapi.yaml from the site alone', async () => {
  const spec = parse(readFileSync('openapi.yaml', 'utf8')) as { paths: Record<string, Record<string, { summary?: string }>> };
  const summaries = Object.values(spec.paths).flatMap((ops) => Object.values(ops).map((op) => op.summary!));
  expect(summaries.length).toBeGreaterThan(30);

  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const origin = new URL(api.url).origin;
  const elsewhere: string[] = [];
  // Anything not for this API is recorded and refused, as a site without internet would.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(`${api.url}/docs`);
  // Rendered: the document's title is on the page; the sidebar then lists every operation.
  await page.getByText('Tenant provisioning service', { exact: false }).first().waitFor({ timeout: 30_000 });
  // Summaries are rendered as Markdown (`<record>` is a tag, `_` may emphasize): compare words only.
  const words = (s: string) =>
    s
      .replace(/<[^>]*>/g, ' ')
      .replace(/[^A-Za-z0-9]+/g, ' ')
      .trim();
  const unlisted = async () => {
    const body = words(await page.locator('body').innerText());
    return summaries.filter((s) => !body.includes(words(s)));
  };
  // Until every operation is listed; after 30 s the ones still missing are the failure, screenshot taken.
  let missing = summaries;
  const listed = await waitFor(async () => (missing = await unlisted()).length === 0, 30_000).then(
    () => 'listed',
    () => 'still missing after 30 s',
  );
  mkdirSync(join(screenshot, '..'), { recursive: true });
  await page.screenshot({ path: screenshot, fullPage: false });
  expect(missing, `operations ${listed} on /docs (screenshot: ${screenshot})`).toEqual([]);
  expect(elsewhere, 'requests that left the site').toEqual([]);
  expect(errors).toEqual([]);
});
