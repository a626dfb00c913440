import { afterAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../activities/ensure.js';
import { generatePsk } from '../../activities/wifi/psk.js';
import { createUnifiWifiAdapter, type UnifiDeployment } from '../../activities/wifi/unifi.js';
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

describe('the controllers are as strict as the real ones', () => {
  it('a self-hosted application has no /proxy/network prefix and no API keys', async () => {
    const { url } = await controller('self-hosted');
    const prefixed = await fetch(`${url}/proxy/network/api/s/default/rest/wlanconf`);
    expect(prefixed.status).toBe(404);
    const keyed = await fetch(`${url}/api/s/default/rest/wlanconf`, { headers: { 'x-api-key': 'lab-unifi-api-key' } });
    expect(keyed.status).toBe(401);
    expect(() => createUnifiWifiAdapter({ url, deployment: 'self-hosted', apiKey: 'lab-unifi-api-key' })).toThrow(/needs a username and password/);
  });

  it.each(['unifi-os', 'self-hosted'] as const)('%s: a write with the session but without its CSRF token is refused', async (deployment) => {
    const { sim, url } = await controller(deployment);
    const loginPath = deployment === 'self-hosted' ? '/api/login' : '/api/auth/login';
    const login = await fetch(`${url}${loginPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(LOGIN) });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const base = `${url}${deployment === 'self-hosted' ? '' : '/proxy/network'}/api/s/default`;
    const read = await fetch(`${base}/rest/wlanconf`, { headers: { cookie } });
    expect(read.status).toBe(200);
    const wlan = sim.wlan('lab-devices')!;
    const write = await fetch(`${base}/rest/wlanconf/${wlan._id}`, { method: 'PUT', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ hide_ssid: true }) });
    expect(write.status).toBe(403);
    expect(wlan.hide_ssid).toBe(false);
  });
});
