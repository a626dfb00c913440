import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE_FLOOR, belowNodeFloor } from '../../apps/config/node-floor.js';

/**
 * `npx tenantctl` on the machine's own Node (npm runs on it; the project's scripts and bins run on
 * the pinned Node 24 from node_modules/.bin): the CLI runs on the pinned Node. Issue 27 asked for no
 * engine warning, which `engines` could give only by naming a Node the service cannot run on;
 * issue 45 made `engines` true (apps/config/node-floor.ts), so npm on an older Node now says, once,
 * the one true thing: the project needs 24.7 (decisions.md, Toolchain). Nothing else is warned.
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
  it('runs the CLI on the pinned Node 24; the only warning is the true engines floor', async () => {
    const machine = (await run('node', ['--version'])).stdout.trim();
    const help = await run('npx', ['tenantctl', '--help']);
    expect(help.stdout).toMatch(/^usage: tenantctl/);
    const warnings = help.stderr.split('\n').filter((l) => /npm warn/i.test(l));
    expect(
      warnings.filter((l) => !/EBADENGINE/.test(l)),
      `npm on ${machine}`,
    ).toEqual([]);
    if (belowNodeFloor(machine) === undefined) expect(warnings).toEqual([]);
    else expect(help.stderr).toContain(`required: { node: '>=${NODE_FLOOR}' }`);
    // What npx puts first on PATH for the bin is the pinned Node, whatever npm itself runs on.
    const pinned = await run('npx', ['--no-install', 'node', '--version']);
    expect(pinned.stdout.trim()).toMatch(/^v24\./);
    expect(pinned.stderr).not.toMatch(/EBADENGINE|npm warn/i);
  });
});
