import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../apps/api/logger.js';
import { startApi, type RunningApi } from '../../apps/api/server.js';
import { ConfigError, loadConfig } from '../../apps/config/env.js';
import { freshDatabase } from '../support/database.js';
import { selfSigned } from '../support/private-ca.js';

/**
 * Transport is TLS 1.2 at least when TLS_CERT_FILE and TLS_KEY_FILE are set (spec: Authentication
 * rule 8, Limits). The clients below are willing to speak TLS 1.1 (security level 0, proven
 * against a control server that allows it), so a refused TLS 1.1 handshake is the API's doing.
 */
let dir: string;
let cert: string;
let key: string;
let databaseUrl: string;
let api: RunningApi;
let control: tls.Server;
const log = createLogger('silent', 'tls-test');

const WEAK_CLIENT = { ciphers: 'DEFAULT@SECLEVEL=0', rejectUnauthorized: false } as const;

function handshake(port: number, version: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'): Promise<{ protocol: string | null } | { error: string }> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, minVersion: version, maxVersion: version, ...WEAK_CLIENT }, () => {
      resolve({ protocol: socket.getProtocol() });
      socket.destroy();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

function sClient(port: number, flag: '-tls1_1' | '-tls1_2'): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'openssl',
      ['s_client', '-connect', `127.0.0.1:${port}`, flag, '-cipher', 'DEFAULT@SECLEVEL=0', '-brief'],
      { timeout: 10_000 },
      (err, stdout, stderr) => resolve({ ok: !err, output: stdout + stderr }),
    );
    child.stdin?.end();
  });
}

const hasOpenSsl = (() => {
  try {
    execFileSync('openssl', ['version']);
    return true;
  } catch {
    return false;
  }
})();

function config(extra: Record<string, string>) {
  return loadConfig({ OPERATOR_TOKEN: 'op-tls-test-0123456789', DATABASE_URL: databaseUrl, LISTEN_ADDRESS: '127.0.0.1:0', ...extra });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tls-test-'));
  ({ cert, key } = selfSigned(dir, 'server', '/CN=127.0.0.1', ['subjectAltName=IP:127.0.0.1']));
  databaseUrl = await freshDatabase();
  api = await startApi({ config: config({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key }), log });
  // A server that does allow TLS 1.1: it shows the clients here can speak it.
  control = tls.createServer({ cert: readFileSync(cert), key: readFileSync(key), minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' }, (s) => s.end());
  await new Promise<void>((r) => control.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  await api?.close();
  await new Promise<void>((r) => (control ? control.close(() => r()) : r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('TLS', () => {
  it('serves https at the address it reports', () => {
    expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the test client can speak TLS 1.1 (to a server that allows it)', async () => {
    expect(await handshake((control.address() as { port: number }).port, 'TLSv1.1')).toEqual({ protocol: 'TLSv1.1' });
  });

  it('refuses a TLS 1.1 handshake with a protocol-version alert', async () => {
    expect(await handshake(api.port, 'TLSv1.1')).toEqual({ error: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
  });

  it('accepts TLS 1.2 and TLS 1.3', async () => {
    expect(await handshake(api.port, 'TLSv1.2')).toEqual({ protocol: 'TLSv1.2' });
    expect(await handshake(api.port, 'TLSv1.3')).toEqual({ protocol: 'TLSv1.3' });
  });

  it.runIf(hasOpenSsl)('openssl s_client: -tls1_1 refused by the API (accepted by the control), -tls1_2 accepted', async () => {
    const controlPort = (control.address() as { port: number }).port;
    expect((await sClient(controlPort, '-tls1_1')).ok).toBe(true);
    const old = await sClient(api.port, '-tls1_1');
    expect(old.ok).toBe(false);
    expect(old.output).toContain('alert protocol version');
    const current = await sClient(api.port, '-tls1_2');
    expect(current.ok, current.output).toBe(true);
    expect(current.output).toContain('Protocol version: TLSv1.2');
  });

  it('answers /healthz over https to a client that verifies the certificate', async () => {
    const res = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      const req = request(`${api.url}/healthz`, { ca: readFileSync(cert) }, (r) => {
        let body = '';
        r.on('data', (d: Buffer) => (body += d.toString()));
        r.on('end', () => resolve({ status: r.statusCode, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res).toEqual({ status: 200, body: '{"status":"ok"}' });
  });

  it('does not answer plain http on the TLS port', async () => {
    await expect(fetch(`http://127.0.0.1:${api.port}/healthz`)).rejects.toThrow();
  });
});

describe('TLS files that cannot be used stop the start, naming the variable and not the path', () => {
  it.each([
    ['an unreadable certificate', () => ({ TLS_CERT_FILE: join(dir, 'missing-cert.pem'), TLS_KEY_FILE: key }), 'TLS_CERT_FILE: cannot read the file (ENOENT)'],
    ['an unreadable key', () => ({ TLS_CERT_FILE: cert, TLS_KEY_FILE: join(dir, 'missing-key.pem') }), 'TLS_KEY_FILE: cannot read the file (ENOENT)'],
    ['files swapped', () => ({ TLS_CERT_FILE: key, TLS_KEY_FILE: cert }), 'TLS_CERT_FILE, TLS_KEY_FILE: must be a PEM certificate and its private key'],
    [
      "a key that is not the certificate's",
      () => {
        const other = join(dir, 'other-key.pem');
        execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', other], { stdio: 'ignore' });
        return { TLS_CERT_FILE: cert, TLS_KEY_FILE: other };
      },
      'TLS_CERT_FILE, TLS_KEY_FILE: must be a PEM certificate and its private key',
    ],
    [
      'not PEM at all',
      () => {
        const junk = join(dir, 'junk.pem');
        writeFileSync(junk, 'not a certificate\n');
        return { TLS_CERT_FILE: junk, TLS_KEY_FILE: junk };
      },
      'TLS_CERT_FILE, TLS_KEY_FILE: must be a PEM certificate and its private key',
    ],
  ])('%s', async (_case, files, message) => {
    const failure = await startApi({ config: config(files()), log }).then(
      async (started) => {
        await started.close();
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toBe(message);
    expect((failure as Error).message).not.toContain(dir);
  });
});
