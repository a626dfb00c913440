import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_PREFIX } from '../../core/credentials/wifi-psk.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { associateAt, expectTenantScopedReads, wifiKeyAnswer } from '../support/lab-calls.js';
import { twoWorkers } from '../support/workers.js';
import { expectUnauthorized } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

/**
 * Wi-Fi keys through the HTTP API, checked on the UniFi simulator: its WLANs' PPSK entries
 * (password, network, MAC) and its lab association check. The site maps `sensor` to lab-devices
 * on tenant-devices (VLAN 40), `camera` to lab-dev on tenant-dev (VLAN 41), and `wired` to no
 * Wi-Fi at all.
 */
let site: TestSite;
const tokens: Record<string, string> = {};

const CLASSES = {
  sensor: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.200.0.64-10.200.0.127' },
  camera: { ssid: 'lab-dev', vlan: 'tenant-dev', range: '10.200.0.128-10.200.0.191' },
  wired: { range: '10.200.0.192-10.200.0.199' },
};

const issue = (t: string, body: unknown, token?: string | null) => site.call('POST', `/v1/tenants/${t}/wifi-keys`, { body, token });
const unifi = () => site.backends.unifi!;
const entries = (ssid: string) => unifi().wlan(ssid)!.private_preshared_keys;
const entryOf = (ssid: string, psk: string) => entries(ssid).find((e) => e.password === psk);
const networkId = (name: string) => unifi().network(name)!._id;

async function associate(ssid: string, psk: string, mac = '02:11:22:33:44:55'): Promise<{ status: number; body: any }> {
  const res = await associateAt(site, ssid, psk, mac);
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  site = await startTestSite({ env: { SITE_TRUST_CLASSES: JSON.stringify(CLASSES) } });
  for (const name of ['keys', 'peer']) {
    const r = await site.call('POST', '/v1/tenants', { body: { name } });
    expect(r.status, r.text).toBe(201);
    tokens[name] = r.body.api_token;
  }
});
afterAll(async () => {
  await site?.stop();
});

let sensors: any;

describe('POST /v1/tenants/{t}/wifi-keys', () => {
  it('issues a key: the service chooses the psk; SSID and VLAN come from the trust class', async () => {
    const r = await issue('keys', { name: 'sensors', trust_class: 'sensor' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual(wifiKeyAnswer('sensors', 'sensor', 'lab-devices', { psk: expect.stringMatching(/^[A-Za-z2-9]{24}$/) }));
    sensors = r.body;
    expect(entryOf('lab-devices', sensors.psk)).toEqual({ password: sensors.psk, networkconf_id: networkId('tenant-devices') });
    expect(unifi().wlan('lab-devices')!.private_preshared_keys_enabled).toBe(true);
    expect(await associate('lab-devices', sensors.psk)).toEqual({ status: 200, body: { vlan: 40, network: 'tenant-devices' } });
    expect(await associate('lab-dev', sensors.psk)).toMatchObject({ status: 403 });

    const cam = await issue('keys', { name: 'cams', trust_class: 'camera' }, tokens.keys);
    expect(cam.status, cam.text).toBe(201);
    expect(cam.body).toMatchObject({ ssid: 'lab-dev', trust_class: 'camera' });
    expect(entryOf('lab-dev', cam.body.psk)).toEqual({ password: cam.body.psk, networkconf_id: networkId('tenant-dev') });
    expect(await associate('lab-dev', cam.body.psk, '02:00:00:00:00:99')).toEqual({ status: 200, body: { vlan: 41, network: 'tenant-dev' } });
  });

  it('issuing again keeps the key (no controller write)', async () => {
    const writes = unifi().state.writes;
    const r = await issue('keys', { name: 'sensors', trust_class: 'sensor' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.psk).toBe(sensors.psk);
    expect(r.body.created_at).toBe(sensors.created_at);
    expect(unifi().state.writes).toBe(writes);
    expect(entries('lab-devices').filter((e) => e.password === sensors.psk)).toHaveLength(1);
  });

  it('issuing again puts back an entry lost on the controller', async () => {
    const wlan = unifi().wlan('lab-devices')!;
    wlan.private_preshared_keys = wlan.private_preshared_keys.filter((e) => e.password !== sensors.psk);
    expect(await associate('lab-devices', sensors.psk)).toMatchObject({ status: 403 });
    const r = await issue('keys', { name: 'sensors', trust_class: 'sensor' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.psk).toBe(sensors.psk);
    expect(await associate('lab-devices', sensors.psk)).toMatchObject({ status: 200 });
  });

  it('400: the trust class cannot change', async () => {
    const r = await issue('keys', { name: 'sensors', trust_class: 'camera' });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(/trust class cannot change/);
    expect(entryOf('lab-devices', sensors.psk)?.networkconf_id).toBe(networkId('tenant-devices'));
  });

  it('400: an unserved trust class names the served ones; a class with no Wi-Fi is refused', async () => {
    const r = await issue('keys', { name: 'k1', trust_class: 'printer' });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ error: 'trust_class: not served at this site; it serves: camera, sensor, wired' });
    const wired = await issue('keys', { name: 'k1', trust_class: 'wired' });
    expect(wired.status, wired.text).toBe(400);
    expect(wired.body.error).toMatch(/trust class "wired" has no Wi-Fi network/);
  });

  it('400: invalid requests', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: 'k1', trust_class: 'sensor', vlan: 'tenant-dev' }, /unknown field "vlan"/],
      [{ name: 'k1', trust_class: 'sensor', ssid: 'lab-dev' }, /unknown field "ssid"/],
      [{ name: 'K1', trust_class: 'sensor' }, /name/],
      [{ name: 'k1' }, /trust_class: required/],
      [{ name: 'k1', trust_class: 'sensor', psk: 'short' }, /psk: must be 8 to 63 characters/],
      [{ name: 'k1', trust_class: 'sensor', psk: 'x'.repeat(64) }, /psk: must be 8 to 63 characters/],
      [{ name: 'k1', trust_class: 'sensor', psk: 'tab\there-x' }, /psk: must be printable ASCII/],
      [{ name: 'k1', trust_class: 'sensor', psk: `${PLACEHOLDER_PREFIX}abcdefgh` }, /psk: uses a reserved form/],
      [{ name: 'admission', trust_class: 'sensor' }, /admission/],
    ];
    for (const [body, text] of cases) {
      const r = await issue('keys', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatch(text);
      expect(r.text).not.toContain('tab\there');
    }
  });

  it('400: a psk other than the key the service holds is not a restore', async () => {
    const r = await issue('keys', { name: 'sensors', trust_class: 'sensor', psk: 'SomethingElse99' });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(/psk only restores a key whose stored copy was lost/);
    expect(r.text).not.toContain('SomethingElse99');
    expect(entryOf('lab-devices', 'SomethingElse99')).toBeUndefined();
  });

  it('psk restores a key whose stored copy is unreadable; the controller is made to match', async () => {
    const first = await issue('keys', { name: 'lost', trust_class: 'sensor' });
    expect(first.status, first.text).toBe(201);
    const psk = first.body.psk;
    // The service loses its copy (a sealing key it no longer holds) and the controller its entry.
    await site.registry.sql`update wifi_keys set psk = 'gone:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' where tenant = 'keys' and name = 'lost'`;
    const wlan = unifi().wlan('lab-devices')!;
    wlan.private_preshared_keys = wlan.private_preshared_keys.filter((e) => e.password !== psk);

    const read = await site.call('GET', '/v1/tenants/keys/wifi-keys/lost');
    expect(read.body.secrets_stored).toBe(false);
    expect(read.body).not.toHaveProperty('psk');
    const without = await issue('keys', { name: 'lost', trust_class: 'sensor' });
    expect(without.status, without.text).toBe(400);
    expect(without.body.error).toMatch(/issue the key again with the tenant's psk/);

    const restored = await issue('keys', { name: 'lost', trust_class: 'sensor', psk }, tokens.keys);
    expect(restored.status, restored.text).toBe(201);
    expect(restored.body).toMatchObject({ name: 'lost', psk, secrets_stored: true });
    expect(entryOf('lab-devices', psk)).toEqual({ password: psk, networkconf_id: networkId('tenant-devices') });
    expect((await site.call('GET', '/v1/tenants/keys/wifi-keys/lost')).body.secrets_stored).toBe(true);
    expect(await associate('lab-devices', psk)).toMatchObject({ status: 200 });
  });

  it('psk restores a key the registry no longer holds at all', async () => {
    const psk = 'Restored-Key-0001';
    const r = await issue('keys', { name: 'restored', trust_class: 'camera', psk });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: 'restored', psk, ssid: 'lab-dev' });
    expect(entryOf('lab-dev', psk)).toEqual({ password: psk, networkconf_id: networkId('tenant-dev') });
  });

  it('502 {error, wifi_key} with the same psk when the controller write did not land; the repeat keeps it', async () => {
    unifi().faults.add({ failNext: 10, method: 'PUT', match: 'wlanconf' });
    const r = await issue('keys', { name: 'flaky', trust_class: 'sensor' });
    unifi().faults.clear();
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "wifi" failed');
    expect(r.body.wifi_key).toMatchObject({ name: 'flaky', trust_class: 'sensor', ssid: 'lab-devices', psk: expect.any(String) });
    expect(entryOf('lab-devices', r.body.wifi_key.psk)).toBeUndefined();
    const again = await issue('keys', { name: 'flaky', trust_class: 'sensor' });
    expect(again.status, again.text).toBe(201);
    expect(again.body.psk).toBe(r.body.wifi_key.psk);
    expect(entryOf('lab-devices', again.body.psk)).toBeDefined();
  });

  it('401 without a token; 404 for an unregistered tenant or another tenant token', async () => {
    expectUnauthorized(await issue('keys', { name: 'k2', trust_class: 'sensor' }, null));
    expect((await issue('nobody', { name: 'k2', trust_class: 'sensor' })).body).toEqual({ error: 'tenant not found' });
    const foreign = await issue('keys', { name: 'k2', trust_class: 'sensor' }, tokens.peer);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'tenant not found' });
  });
});

describe('GET /v1/tenants/{t}/wifi-keys[/{key}]', () => {
  it('lists the keys by name, never with a psk', async () => {
    const r = await site.call('GET', '/v1/tenants/keys/wifi-keys', { token: tokens.keys });
    expect(r.status, r.text).toBe(200);
    expect(r.body.wifi_keys.map((k: any) => k.name)).toEqual(['cams', 'flaky', 'lost', 'restored', 'sensors']);
    for (const k of r.body.wifi_keys) {
      expect(k).not.toHaveProperty('psk');
      expect(k.secrets_stored).toBe(true);
    }
    expect(r.text).not.toContain(sensors.psk);
    expect((await site.call('GET', '/v1/tenants/peer/wifi-keys')).body).toEqual({ wifi_keys: [] });
  });

  it('answers one key without its psk, with secrets_stored; 404 for an unknown one', async () => {
    const r = await site.call('GET', '/v1/tenants/keys/wifi-keys/sensors');
    expect(r.status).toBe(200);
    const { psk: _psk, ...withoutPsk } = sensors;
    // The read adds the condition of the key's newest run: an issue (or a restore of it), done.
    expect(r.body).toEqual({
      ...withoutPsk,
      condition: expect.objectContaining({
        ready: true,
        run: expect.objectContaining({ id: expect.stringMatching(/^wifi-key\/keys\/sensors/), state: 'done' }),
      }),
    });
    const missing = await site.call('GET', '/v1/tenants/keys/wifi-keys/ghost');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'wifi key not found' });
  });

  it('401 without a token; 404 for an unregistered tenant or another tenant token', async () => {
    await expectTenantScopedReads(site, ['/v1/tenants/keys/wifi-keys', '/v1/tenants/keys/wifi-keys/sensors'], tokens.peer!);
  });
});

describe('DELETE /v1/tenants/{t}/wifi-keys/{key}', () => {
  it('revokes: every device holding the key stops associating', async () => {
    const psk = (await issue('keys', { name: 'cams', trust_class: 'camera' })).body.psk;
    expect(await associate('lab-dev', psk, '02:00:00:00:00:01')).toMatchObject({ status: 200 });
    expect(await associate('lab-dev', psk, '02:00:00:00:00:02')).toMatchObject({ status: 200 });
    const r = await site.call('DELETE', '/v1/tenants/keys/wifi-keys/cams', { token: tokens.keys });
    expect(r.status, r.text).toBe(204);
    expect(entryOf('lab-dev', psk)).toBeUndefined();
    expect(await associate('lab-dev', psk, '02:00:00:00:00:01')).toMatchObject({ status: 403 });
    expect(await associate('lab-dev', psk, '02:00:00:00:00:02')).toMatchObject({ status: 403 });
    expectStatus(await site.call('GET', '/v1/tenants/keys/wifi-keys/cams'), 404, site.logs);
    const again = await site.call('DELETE', '/v1/tenants/keys/wifi-keys/cams');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'wifi key not found' });
  });

  it('502 when the controller write did not land; repeating it revokes', async () => {
    const psk = (await issue('keys', { name: 'flaky', trust_class: 'sensor' })).body.psk;
    unifi().faults.add({ failNext: 10, method: 'PUT', match: 'wlanconf' });
    const r = await site.call('DELETE', '/v1/tenants/keys/wifi-keys/flaky');
    unifi().faults.clear();
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "wifi" failed', failure: { step: 'wifi' } });
    expect(await associate('lab-devices', psk)).toMatchObject({ status: 200 });
    expectStatus(await site.call('DELETE', '/v1/tenants/keys/wifi-keys/flaky'), 204, site.logs);
    expect(await associate('lab-devices', psk)).toMatchObject({ status: 403 });
  });

  it('401 without a token; 404 for an unregistered tenant or another tenant token', async () => {
    expectUnauthorized(await site.call('DELETE', '/v1/tenants/keys/wifi-keys/sensors', { token: null }));
    expectStatus(await site.call('DELETE', '/v1/tenants/keys/wifi-keys/sensors', { token: tokens.peer }), 404, site.logs);
    expect((await site.call('DELETE', '/v1/tenants/nobody/wifi-keys/sensors')).body).toEqual({ error: 'tenant not found' });
    expect(await associate('lab-devices', sensors.psk)).toMatchObject({ status: 200 });
  });

  it("revoking a WLAN's last key leaves one unusable placeholder entry", async () => {
    for (const name of ['sensors', 'lost']) {
      expectStatus(await site.call('DELETE', `/v1/tenants/keys/wifi-keys/${name}`), 204, site.logs);
    }
    const left = entries('lab-devices');
    expect(left).toHaveLength(1);
    expect(left[0]!.password.startsWith(PLACEHOLDER_PREFIX)).toBe(true);
    expect(left[0]!.networkconf_id).toBe(networkId('blackhole'));
    expect(unifi().wlan('lab-devices')!.private_preshared_keys_enabled).toBe(true);
    expect(await associate('lab-devices', sensors.psk)).toMatchObject({ status: 403 });
    // A new key replaces the placeholder.
    const r = await issue('keys', { name: 'again', trust_class: 'sensor' });
    expect(r.status, r.text).toBe(201);
    expect(entries('lab-devices')).toEqual([{ password: r.body.psk, networkconf_id: networkId('tenant-devices') }]);
  });
});

describe('two workers', () => {
  it("concurrent issues on two workers all land in one WLAN's key list (its rewrite is serialized)", async () => {
    const two = await twoWorkers(site);
    try {
      // Both workers poll; slow the controller so the writes overlap.
      unifi().faults.add({ latencyMs: 100 });
      // Ten, so each worker surely gets some of the WLAN writes (all on one: 2 in 1,024).
      const results = await Promise.all(
        ['c-1', 'c-2', 'c-3', 'c-4', 'c-5', 'c-6', 'c-7', 'c-8', 'c-9', 'c-10'].map((name) => issue('keys', { name, trust_class: 'camera' })),
      );
      unifi().faults.clear();
      for (const r of results) {
        expect(r.status, r.text).toBe(201);
        expect(entryOf('lab-dev', r.body.psk)).toEqual({ password: r.body.psk, networkconf_id: networkId('tenant-dev') });
      }
      // Both processes wrote the WLAN (the contended write), so the serialization held across processes.
      expect([...(await two.workers('wifi.ensure-key'))].sort()).toEqual([...two.identities].sort());
    } finally {
      unifi().faults.clear();
      await two.stop();
    }
  });
});

describe('tenant delete', () => {
  it('revokes every key of the tenant', async () => {
    const k = await issue('peer', { name: 'pk', trust_class: 'camera' });
    expect(k.status, k.text).toBe(201);
    site.backends.proxmox.removeTenantNetwork('peer');
    expectStatus(await site.call('DELETE', '/v1/tenants/peer'), 204, site.logs);
    expect(entryOf('lab-dev', k.body.psk)).toBeUndefined();
    expect(await associate('lab-dev', k.body.psk)).toMatchObject({ status: 403 });
  });
});

describe('tenant delete failing at the wifi step', () => {
  it('answers 502 naming the step and leaves the tenant deleting with its key; the repeat revokes it (204)', async () => {
    const t = await site.call('POST', '/v1/tenants', { body: { name: 'wfail' } });
    expect(t.status, t.text).toBe(201);
    const k = await issue('wfail', { name: 'wk', trust_class: 'camera' }, t.body.api_token);
    expect(k.status, k.text).toBe(201);
    site.backends.proxmox.removeTenantNetwork('wfail');
    unifi().faults.add({ failNext: 1000, status: 500 });
    let r;
    try {
      r = await site.call('DELETE', '/v1/tenants/wfail');
    } finally {
      unifi().faults.clear();
    }
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "wifi" failed', failure: { step: 'wifi' } });
    expect((await site.call('GET', '/v1/tenants/wfail')).body.status).toBe('deleting');
    expect(entryOf('lab-dev', k.body.psk)).toBeDefined();
    const again = await site.call('DELETE', '/v1/tenants/wfail');
    expect(again.status, again.text).toBe(204);
    expect(entryOf('lab-dev', k.body.psk)).toBeUndefined();
  });
});

describe('secrets', () => {
  it('no psk ever reaches the service log', async () => {
    const psks = [
      ...new Set(
        unifi()
          .state.sites.get('default')!
          .wlans.flatMap((w) => w.private_preshared_keys.map((e) => e.password)),
      ),
    ];
    expect(psks.length).toBeGreaterThan(0);
    for (const psk of [...psks, sensors.psk, 'Restored-Key-0001']) {
      expect(site.logs.filter((l) => l.includes(psk))).toEqual([]);
    }
  });
});

describe('at a site with no wireless controller', () => {
  let bare: TestSite;
  beforeAll(async () => {
    // The developer network goes with the controller (a developer SSID alone is refused at start).
    bare = await startTestSite({ env: { SITE_WIFI_URL: '', SITE_WIFI_DEVELOPER_SSID: '', SITE_WIFI_DEVELOPER_VLAN: '', SITE_WIFI_DEVELOPER_BOUND_SSID: '' } });
    expectStatus(await bare.call('POST', '/v1/tenants', { body: { name: 'bare' } }), 201, bare.logs);
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('the routes refuse with 501 and a reason', async () => {
    for (const [method, path, body] of [
      ['POST', '/v1/tenants/bare/wifi-keys', { name: 'k', trust_class: 'sensor' }],
      ['GET', '/v1/tenants/bare/wifi-keys', undefined],
      ['GET', '/v1/tenants/bare/wifi-keys/k', undefined],
      ['DELETE', '/v1/tenants/bare/wifi-keys/k', undefined],
    ] as const) {
      const r = await bare.call(method, path, body ? { body } : {});
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(501);
      expect(r.body).toEqual({ error: 'no wireless controller at this site' });
    }
  });
});
