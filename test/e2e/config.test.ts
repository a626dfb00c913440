import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EntryBundles } from '../support/entry-bundles.js';
import { freshDatabase } from '../support/database.js';
import { waitFor } from '../support/site.js';
import { siteEnv } from '../support/site-env.js';
import { endingWithParent } from '../../core/parent-death.js';

/**
 * The processes refuse to start on bad configuration (spec: Configuration; design §3): exit
 * status 2 and one line on stderr naming the variable — never a value that was set. Each process
 * costs about a second, so the full table of values lives in apps/config/env.test.ts and the
 * TLS file checks in test/e2e/tls.test.ts; here one case of each kind.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts an entry point with exactly `env` (plus PATH/HOME), as an operator's process manager would. */
function start(entry: keyof EntryBundles, env: Record<string, string>, timeoutMs = 20_000) {
  const child = spawn(...endingWithParent(process.execPath, [inject('entryBundles')[entry]]), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Exit = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<Exit>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${entry} still running after ${timeoutMs} ms; stderr: ${out.stderr}`));
    }, timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ ...out, code });
    });
  });
  return { child, out, exited };
}

const run = (entry: keyof EntryBundles, env: Record<string, string>) => start(entry, env).exited;

// Values a test sets; none may ever be printed.
const secret = {
  operatorToken: `op-${randomBytes(12).toString('hex')}`,
  dbPassword: `pw${randomBytes(8).toString('hex')}`,
  tokenKey: randomBytes(16).toString('base64'),
  listen: `nonsense${randomBytes(4).toString('hex')}`,
  path: `/nonexistent-${randomBytes(4).toString('hex')}`,
};
const databaseUrl = `postgres://svc:${secret.dbPassword}@127.0.0.1:1/registry`;
const base = { OPERATOR_TOKEN: secret.operatorToken, DATABASE_URL: databaseUrl, LISTEN_ADDRESS: '127.0.0.1:0', LOG_LEVEL: 'warn' };
const site = siteEnv();

function expectNoValueShown(exit: Exit): void {
  const out = exit.stdout + exit.stderr;
  for (const value of Object.values(secret)) expect(out).not.toContain(value);
}

let busy: Server;
let busyPort: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => busy.close(() => r())));

describe('the API process refuses to start', () => {
  const without = (name: keyof typeof base) => {
    const env: Record<string, string> = { ...base };
    delete env[name];
    return env;
  };
  it.each([
    ['without OPERATOR_TOKEN', () => without('OPERATOR_TOKEN'), 'api: OPERATOR_TOKEN is required\n'],
    ['without DATABASE_URL', () => without('DATABASE_URL'), 'api: DATABASE_URL is required\n'],
    [
      'with LISTEN_ADDRESS=nonsense',
      () => ({ ...base, LISTEN_ADDRESS: secret.listen }),
      'api: invalid configuration: LISTEN_ADDRESS: must look like host:port or :port\n',
    ],
    [
      'with SITE_TOKEN_KEY not 32 bytes',
      () => ({ ...base, ...site, SITE_TOKEN_KEY: secret.tokenKey }),
      'api: invalid site configuration: SITE_TOKEN_KEY: must be 32 bytes, base64\n',
    ],
    [
      'with TLS_CERT_FILE but no TLS_KEY_FILE',
      () => ({ ...base, TLS_CERT_FILE: `${secret.path}/cert.pem` }),
      'api: TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither\n',
    ],
    [
      'with a TLS_CERT_FILE it cannot read',
      () => ({ ...base, TLS_CERT_FILE: `${secret.path}/cert.pem`, TLS_KEY_FILE: `${secret.path}/key.pem` }),
      'api: TLS_CERT_FILE: cannot read the file (ENOENT)\n',
    ],
    ['on a LISTEN_ADDRESS already in use', () => ({ ...base, LISTEN_ADDRESS: `127.0.0.1:${busyPort}` }), 'api: LISTEN_ADDRESS: cannot listen (EADDRINUSE)\n'],
  ])('%s', async (_case, env, message) => {
    const exit = await run('api', env());
    expect(exit.stderr).toBe(message);
    expect(exit.code).toBe(2);
    expectNoValueShown(exit);
  });
});

describe('the worker process refuses to start', () => {
  it.each([
    ['without OPERATOR_TOKEN', { DATABASE_URL: databaseUrl }, 'worker: OPERATOR_TOKEN is required\n'],
    ['without DATABASE_URL', { OPERATOR_TOKEN: secret.operatorToken }, 'worker: DATABASE_URL is required\n'],
  ])('%s', async (_case, env, message) => {
    const exit = await run('worker', env);
    expect(exit.stderr).toBe(message);
    expect(exit.code).toBe(2);
    expectNoValueShown(exit);
  });
});

describe('with only the required settings', () => {
  it('the API process starts, serves, answers tenant routes 501 and stops on SIGTERM', async () => {
    const url = await freshDatabase();
    const api = start('api', { OPERATOR_TOKEN: secret.operatorToken, DATABASE_URL: url, LISTEN_ADDRESS: '127.0.0.1:0', LOG_LEVEL: 'info' });
    try {
      await waitFor(() => api.out.stdout.includes('"api listening"'));
      const line = api.out.stdout.split('\n').find((l) => l.includes('"api listening"'))!;
      const base = (JSON.parse(line) as { url: string }).url;
      const health = await fetch(`${base}/healthz`);
      expect([health.status, await health.text()]).toEqual([200, '{"status":"ok"}']);
      await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200);
      const tenants = await fetch(`${base}/v1/tenants`, { headers: { authorization: `Bearer ${secret.operatorToken}` } });
      expect([tenants.status, await tenants.text()]).toEqual([501, '{"error":"no site configured"}']);
    } finally {
      api.child.kill('SIGTERM');
    }
    const exit = await api.exited;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe('');
    expectNoValueShown(exit);
  });
});
