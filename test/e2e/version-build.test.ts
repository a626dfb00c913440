import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LISTENING, reportedAddress } from '../support/reported-address.js';
import { waitFor } from '../support/site.js';
import { endingWithParent } from '../../core/parent-death.js';

/**
 * `/version` of a production build (issue 27 item 4): built as the Dockerfile builds it (`npm run
 * build`'s two commands, the migrations beside), started as the image starts it (`node
 * dist/apps/api/main.js`), it names the release of package.json, the commit HEAD names and the
 * build's own time, with no build argument passed. It answered 0.1.0 and `commit: unknown` before.
 */
const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let api: ChildProcess | undefined;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(ROOT, '.test-run', 'build-'));
  await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', dir], { cwd: ROOT });
  await run(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/write-build-info.ts', dir], { cwd: ROOT });
  cpSync(join(ROOT, 'db/migrations'), join(dir, 'db/migrations'), { recursive: true });
  api = spawn(...endingWithParent(process.execPath, [join(dir, 'apps/api/main.js')]), {
    cwd: dir,
    // Only what the service needs to start; nothing names the build (no SERVICE_* variables).
    env: {
      PATH: process.env.PATH ?? '',
      OPERATOR_TOKEN: 'op-version-build-0123456789',
      DATABASE_URL: 'postgres://nobody:none@127.0.0.1:1/none',
      // Port 0: the API binds, then says where.
      LISTEN_ADDRESS: '127.0.0.1:0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await reportedAddress(api, API_LISTENING);
  await waitFor(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true, 30_000);
}, 180_000);

afterAll(async () => {
  api?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('/version of a production build', () => {
  it('names the release, the commit HEAD names and the build time, baked in by the build', async () => {
    const baked = JSON.parse(readFileSync(join(dir, 'build-info.json'), 'utf8')) as { version: string; commit: string; built: string };
    const { stdout } = await run('git', ['rev-parse', 'HEAD'], { cwd: ROOT });
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const r = await fetch(`${url}/version`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { version: string; commit: string; built: string };
    expect(body).toEqual({ version, commit: stdout.trim(), built: baked.built });
    expect(version).not.toBe('0.1.0');
    expect(Date.parse(body.built)).toBeGreaterThan(Date.now() - 10 * 60_000);
  });
});
