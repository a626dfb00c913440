import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
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

/**
 * Issue 47 item 5: an example copied from /docs runs as pasted. The served document names its
 * server as `/` (the origin that served it), so Scalar's curl snippet carries the API's own address;
 * the snippet, taken from the page as a person copies it, runs in a shell and the API answers.
 */
it("gives curl examples that carry the API's address and run as pasted", async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${api.url}/docs#tag/service/GET/healthz`);
  const snippet = page
    .locator('.cm-content, pre, code')
    .filter({ hasText: /^curl\b.*\/healthz/ })
    .first();
  await snippet.waitFor({ timeout: 30_000 });
  const text = (await snippet.innerText()).trim();
  await page.screenshot({ path: resolve('.test-run/docs-page-snippet.png') });
  expect(text).toContain(`${api.url}/healthz`);
  const { stdout } = await promisify(execFile)('sh', ['-c', `${text} -s -o /dev/null -w '%{http_code}'`]);
  expect(stdout).toBe('200');

  // An operation behind the bearer token: the snippet names the address and the header; with the
  // operator's token where the page shows its placeholder, it runs as pasted too.
  await page.goto(`${api.url}/docs#tag/tenants/GET/v1/tenants`);
  const tenants = page
    .locator('.cm-content, pre, code')
    .filter({ hasText: /^curl\b.*\/v1\/tenants\b/ })
    .first();
  await tenants.waitFor({ timeout: 30_000 });
  const withAuth = (await tenants.innerText()).trim();
  expect(withAuth).toContain(`${api.url}/v1/tenants`);
  expect(withAuth).toMatch(/Authorization: Bearer \S+'/);
  const pasted = withAuth.replace(/(Authorization: Bearer )[^']+/, `$1${'o'.repeat(32)}`);
  const authorized = await promisify(execFile)('sh', ['-c', `${pasted} -s -o /dev/null -w '%{http_code}'`]);
  // This API runs without a site, so the route answers 501; what matters is that the pasted call
  // is the API's own call, authorized: the same answer as the call made directly.
  const direct = await fetch(`${api.url}/v1/tenants`, { headers: { Authorization: `Bearer ${'o'.repeat(32)}` } });
  expect(authorized.stdout).toBe(String(direct.status));
  expect(authorized.stdout).not.toBe('401');
  await page.close();
});
