import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { BackendError } from '../../core/backend-outcome.js';
import { failureOf } from '../support/backend-error.js';
import { generatePsk } from '../../core/credentials/wifi-psk.js';
import { createUnifiWifiAdapter } from '../../backends/unifi/unifi.js';
import { loadConfig } from '../../apps/config/env.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createUnifiSimulator, type UnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';
import { selfSigned } from '../support/private-ca.js';
import { siteEnv } from '../support/site-env.js';

/**
 * A UniFi console as shipped (issue 28 item 7): its own self-signed certificate, whose names are
 * the console's (`unifi.local`), not the address the worker reaches it by. A CA bundle cannot
 * trust it (the name check fails); pinning its SHA-256 fingerprint does, verified on every
 * connection, and a wrong pin sends nothing to the controller, not even the API key.
 */
const API_KEY = 'lab-unifi-api-key-PIN';
let dir: string;
let certFile: string;
let fingerprint: string;
let sim: UnifiSimulator;
let server: RunningServer;
let requests = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'unifi-cert-'));
  // A console's own self-signed certificate, as UniFi ships it: trusted only by its pinned fingerprint.
  const made = selfSigned(dir, 'unifi', '/CN=unifi.local', ['subjectAltName=DNS:unifi.local']);
  const key = made.key;
  certFile = made.cert;
  const cert = readFileSync(certFile, 'utf8');
  fingerprint = new X509Certificate(cert).fingerprint256;
  sim = createUnifiSimulator({ apiKey: API_KEY, wlans: [{ ssid: 'lab-devices', network: 'tenant-devices' }] });
  const app = new Hono();
  app.use('*', async (_c, next) => {
    requests++;
    await next();
  });
  app.route('/', sim.app);
  server = await serveApp(app, 0, { cert, key: readFileSync(key, 'utf8') });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (psk: string) => ({ ssid: 'lab-devices', vlanNetwork: 'tenant-devices', keyId: `acme/${psk.slice(0, 4)}`, psk });
const refusal = failureOf;

describe('a controller with its own self-signed certificate', () => {
  it('pinned by its fingerprint (any spelling): keys land, every connection checked', async () => {
    for (const pin of [fingerprint, fingerprint.replace(/:/g, '').toLowerCase()]) {
      const wifi = createUnifiWifiAdapter({ url: server.url, apiKey: API_KEY, pin: loadConfig(env({ SITE_WIFI_CERT_SHA256: pin })).site!.wifi!.pin });
      const psk = generatePsk();
      expect((await wifi.ensure(spec(psk)))[0]!.result).toBe('created');
      expect(sim.wlan('lab-devices')!.private_preshared_keys.map((e) => e.password)).toContain(psk);
    }
  });

  it('a wrong pin: refused as a setting to fix, and nothing reaches the controller', async () => {
    const before = requests;
    const wrong = fingerprint.replace(/^../, fingerprint.startsWith('00') ? '11' : '00');
    const err = await refusal(createUnifiWifiAdapter({ url: server.url, apiKey: API_KEY, pin: wrong }).ensure(spec(generatePsk())));
    expect(err).toBeInstanceOf(BackendError);
    expect(err!.retryable).toBe(false);
    expect(err!.detail).toMatch(/certificate not trusted \(CERT_FINGERPRINT_MISMATCH: .* is not the pinned one\); check the pinned fingerprint/);
    expect(requests).toBe(before);
  });

  it('its certificate as a CA bundle, or no trust at all: refused (never skipped), nothing sent', async () => {
    const before = requests;
    const asCa = await refusal(createUnifiWifiAdapter({ url: server.url, apiKey: API_KEY, ca: readFileSync(certFile, 'utf8') }).ensure(spec(generatePsk())));
    expect(asCa!.detail).toMatch(/certificate not trusted \(ERR_TLS_CERT_ALTNAME_INVALID/);
    const none = await refusal(createUnifiWifiAdapter({ url: server.url, apiKey: API_KEY }).ensure(spec(generatePsk())));
    expect(none!.detail).toMatch(/certificate not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT/);
    expect(requests).toBe(before);
  });
});

describe('SITE_WIFI_CERT_SHA256', () => {
  it('refuses what is not a SHA-256 fingerprint, and a CA bundle beside it, naming the setting', () => {
    expect(() => loadConfig(env({ SITE_WIFI_CERT_SHA256: 'AB:CD' }))).toThrow(/SITE_WIFI_CERT_SHA256: must be the SHA-256 fingerprint/);
    writeFileSync(join(dir, 'ca.pem'), readFileSync(certFile));
    expect(() => loadConfig(env({ SITE_WIFI_CERT_SHA256: fingerprint, SITE_WIFI_CA_FILE: join(dir, 'ca.pem') }))).toThrow(
      /SITE_WIFI_CERT_SHA256: pins the controller's certificate; SITE_WIFI_CA_FILE is another trust/,
    );
  });
});

function env(extra: Record<string, string>): Record<string, string> {
  return {
    OPERATOR_TOKEN: 'op-pinning-0123456789',
    DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/none',
    ...siteEnv({ SITE_DOMAIN: 'lab.example', SITE_WIFI_URL: server.url, SITE_WIFI_API_KEY: API_KEY, ...extra }),
  };
}
