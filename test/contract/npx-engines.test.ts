import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 27 item 9: `npx tenantctl` on the machine's own Node (npm runs on it; the project's scripts
 * and bins run on the pinned Node 24 from node_modules/.bin) prints no engine warning, and the CLI
 * still runs on the pinned Node.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
// The machine's PATH, without the node_modules/.bin an npm script or vitest put first.
const PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((p) => !p.includes('node_modules/.bin'))
  .join(delimiter);
// Without the npm_* settings an npm that started this process passes down (they are not the machine's),
// and with an empty npm cache: npx installs the project into its cache (~/.npm/_npx) the first time,
// and that install is where npm checks `engines` against the Node npm runs on. A newcomer's first
// `npx tenantctl` is this one. Nothing is fetched: the project is linked, its packages installed.
const cache = mkdtempSync(join(tmpdir(), 'npx-engines-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))), PATH, npm_config_cache: cache };
const run = (cmd: string, args: string[]) => promisify(execFile)(cmd, args, { cwd: root, env, timeout: 60_000 });

describe("npx tenantctl on the machine's Node", () => {
  it('prints no engine warning, and the CLI runs on the pinned Node 24', async () => {
    const machine = (await run('node', ['--version'])).stdout.trim();
    const help = await run('npx', ['tenantctl', '--help']);
    expect(help.stdout).toMatch(/^usage: tenantctl/);
    expect(help.stderr, `npm on ${machine}`).not.toMatch(/EBADENGINE|EBADDEVENGINES|npm warn/i);
    // What npx puts first on PATH for the bin is the pinned Node, whatever npm itself runs on.
    const pinned = await run('npx', ['--no-install', 'node', '--version']);
    expect(pinned.stdout.trim()).toMatch(/^v24\./);
    expect(pinned.stderr).not.toMatch(/EBADENGINE|npm warn/i);
  });
});
