import { afterAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../core/backend-outcome.js';
import { generatePsk } from '../../core/credentials/wifi-psk.js';
import { createUnifiWifiAdapter, type UnifiDeployment } from '../../backends/unifi/unifi.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createUnifiSimulator, type UnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';

/**
 * The wifi adapter against both deployments of the Network application, each with its own login
 * (apps/lab/simulators/unifi/auth.ts names the sources): a console (UniFi OS, `/proxy/network`,
 * `TOKEN` cookie, `X-CSRF-Token`) and a self-hosted application (no prefix, `unifises` and
 * `csrf_token` cookies). What a tenant notices is that its key lands and keeps working when the
 * controller's session expires.
 */
const LOGIN = { username: 'svc-provisioning', password: 'lab-login-password-1' };
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function controller(deployment: UnifiDeployment): Promise<{ sim: UnifiSimulator; url: string }> {
  const sim = createUnifiSimulator({ deployment, login: LOGIN, wlans: [{ ssid: 'lab-devices', network: 'tenant-devices' }] });
  const server = await serveApp(sim.app);
  servers.push(server);
  return { sim, url: server.url };
}

const spec = (psk: string) => ({ ssid: 'lab-devices', vlanNetwork: 'tenant-devices', keyId: `acme/${psk.slice(0, 4)}`, psk });

describe.each(['unifi-os', 'self-hosted'] as const)('a %s controller with a login', (deployment) => {
  it('logs in once, issues a key, and reuses the session', async () => {
    const { sim, url } = await controller(deployment);
    const wifi = createUnifiWifiAdapter({ url, deployment, ...LOGIN });
    const psk = generatePsk();
    expect((await wifi.ensure(spec(psk)))[0]!.result).toBe('created');
    expect((await wifi.ensure(spec(psk)))[0]!.result).toBe('in-place');
    expect(sim.wlan('lab-devices')!.private_preshared_keys.map((e) => e.password)).toContain(psk);
    expect(sim.auth.logins()).toBe(1);
  });

  it('logs in again when the session expired, and the write lands', async () => {
    const { sim, url } = await controller(deployment);
    const wifi = createUnifiWifiAdapter({ url, deployment, ...LOGIN });
    await wifi.ensure(spec(generatePsk()));
    sim.auth.expireSessions();
    const psk = generatePsk();
    expect((await wifi.ensure(spec(psk)))[0]!.result).toBe('created');
    expect(sim.auth.logins()).toBe(2);
    expect(sim.wlan('lab-devices')!.private_preshared_keys.map((e) => e.password)).toContain(psk);
  });

  it('refuses a wrong password as a setting to fix, naming no credential', async () => {
    const { url } = await controller(deployment);
    const wifi = createUnifiWifiAdapter({ url, deployment, username: LOGIN.username, password: 'not-the-password' });
    const e = (await wifi.ensure(spec(generatePsk())).catch((err: unknown) => err)) as BackendError;
    expect(e).toBeInstanceOf(BackendError);
    expect(e.retryable).toBe(false);
    expect(e.detail).toMatch(/login refused/);
    expect(e.detail).not.toContain('not-the-password');
  });
});

describe('a self-hosted application', () => {
  // Its wire strictness (no prefix, no API keys, CSRF on writes) is in sim-unifi.test.ts.
  it('is not reached with an API key alone: it takes none, so the adapter asks for a login', async () => {
    const { url } = await controller('self-hosted');
    expect(() => createUnifiWifiAdapter({ url, deployment: 'self-hosted', apiKey: 'lab-unifi-api-key' })).toThrow(/needs a username and password/);
  });
});
