import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createUnifiSimulator, type UnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';

// Fidelity of the UniFi simulator to the controller's wire API: paths, the X-API-KEY header,
// the {meta, data} envelope, error codes and the refusals the adapter is built around.
const KEY = 'sim-test-key';
let sim: UnifiSimulator;
let server: RunningServer;

const api = (path: string) => `${server.url}/proxy/network/api/s/default/${path}`;
async function call(method: string, url: string, body?: unknown, key: string | null = KEY) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers['x-api-key'] = key;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  sim = createUnifiSimulator({
    apiKey: KEY,
    networks: [
      { name: 'Default', subnet: '192.168.1.1/24' },
      { name: 'devices', vlan: 40 },
      { name: 'blackhole', vlan: 4000 },
    ],
    wlans: [
      { ssid: 'plain', network: 'Default', passphrase: 'shared-passphrase' },
      { ssid: 'keyed', network: 'devices', ppsk: [{ password: 'first-key-123', network: 'devices' }] },
    ],
  });
  server = await serveApp(sim.app);
});
afterAll(async () => {
  await server.close();
});

describe('authentication', () => {
  it('refuses a request without X-API-KEY with 401 api.err.LoginRequired', async () => {
    const res = await call('GET', api('rest/wlanconf'), undefined, null);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ meta: { rc: 'error', msg: 'api.err.LoginRequired' }, data: [] });
  });

  it('refuses a wrong key the same way', async () => {
    const res = await call('GET', api('rest/networkconf'), undefined, 'not-the-key');
    expect(res.status).toBe(401);
    expect(res.body.meta.msg).toBe('api.err.LoginRequired');
  });

  it('answers an unknown site with api.err.NoSiteContext', async () => {
    const res = await call('GET', `${server.url}/proxy/network/api/s/nosuch/rest/wlanconf`);
    expect(res.status).toBe(400);
    expect(res.body.meta).toEqual({ rc: 'error', msg: 'api.err.NoSiteContext' });
  });
});

describe('collections', () => {
  it('lists networks in the {meta: {rc: ok}, data: [...]} envelope with controller field names', async () => {
    const res = await call('GET', api('rest/networkconf'));
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ rc: 'ok' });
    const devices = res.body.data.find((n: any) => n.name === 'devices');
    expect(devices).toMatchObject({ purpose: 'vlan-only', vlan_enabled: true, vlan: 40, enabled: true });
    expect(devices._id).toMatch(/^[0-9a-f]{24}$/);
    expect(devices.site_id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('lists WLANs with their PPSK fields', async () => {
    const res = await call('GET', api('rest/wlanconf'));
    const keyed = res.body.data.find((w: any) => w.name === 'keyed');
    expect(keyed).toMatchObject({ security: 'wpapsk', private_preshared_keys_enabled: true });
    expect(keyed.private_preshared_keys).toEqual([{ password: 'first-key-123', networkconf_id: sim.network('devices')!._id }]);
    const plain = res.body.data.find((w: any) => w.name === 'plain');
    expect(plain).toMatchObject({ private_preshared_keys_enabled: false, private_preshared_keys: [], x_passphrase: 'shared-passphrase' });
  });

  it('answers one object by _id, and api.err.IdInvalid for an unknown one', async () => {
    const id = sim.wlan('keyed')!._id;
    const one = await call('GET', api(`rest/wlanconf/${id}`));
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]._id).toBe(id);
    const none = await call('GET', api('rest/wlanconf/0123456789abcdef01234567'));
    expect(none.status).toBe(400);
    expect(none.body.meta.msg).toBe('api.err.IdInvalid');
  });

  it('answers an unknown collection with api.err.NotFound', async () => {
    const res = await call('GET', api('rest/nosuchthing'));
    expect(res.status).toBe(404);
    expect(res.body.meta).toEqual({ rc: 'error', msg: 'api.err.NotFound' });
  });
});

describe('PUT rest/wlanconf', () => {
  it('merges a partial body and answers the whole updated object', async () => {
    const wlan = sim.wlan('keyed')!;
    const devices = sim.network('devices')!._id;
    const keys = [
      { password: 'first-key-123', networkconf_id: devices },
      { password: 'second-key-45', networkconf_id: devices },
    ];
    const res = await call('PUT', api(`rest/wlanconf/${wlan._id}`), { private_preshared_keys: keys });
    expect(res.status).toBe(200);
    expect(res.body.data[0].name).toBe('keyed');
    expect(res.body.data[0].security).toBe('wpapsk');
    expect(res.body.data[0].private_preshared_keys[1]).toEqual({ password: 'second-key-45', networkconf_id: devices });
  });

  it('refuses an enabled, empty PPSK list with the controller validation error shape', async () => {
    const wlan = sim.wlan('keyed')!;
    const before = structuredClone(wlan.private_preshared_keys);
    const res = await call('PUT', api(`rest/wlanconf/${wlan._id}`), { private_preshared_keys: [] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      meta: { rc: 'error', msg: 'api.err.InvalidPayload' },
      data: [{ rc: 'error', msg: 'api.err.InvalidValue', validationError: { field: 'private_preshared_keys' } }],
    });
    expect(sim.wlan('keyed')!.private_preshared_keys).toEqual(before);
  });

  it('refuses enabling PPSK on a WLAN that has no keys', async () => {
    const wlan = sim.wlan('plain')!;
    const res = await call('PUT', api(`rest/wlanconf/${wlan._id}`), { private_preshared_keys_enabled: true });
    expect(res.status).toBe(400);
    expect(res.body.data[0].validationError.field).toBe('private_preshared_keys');
  });

  it('accepts an empty list once PPSK is disabled in the same body', async () => {
    const wlan = sim.wlan('plain')!;
    const res = await call('PUT', api(`rest/wlanconf/${wlan._id}`), { private_preshared_keys: [], private_preshared_keys_enabled: false });
    expect(res.status).toBe(200);
  });

  const refusals: Array<{ entry: Record<string, unknown>; field: string; reason: string }> = [
    { entry: { password: 'short', networkconf_id: 'DEVICES' }, field: 'password', reason: 'a password under 8 characters' },
    { entry: { password: 'tab\tinside-it', networkconf_id: 'DEVICES' }, field: 'password', reason: 'a non-printable password' },
    { entry: { password: 'long-enough-1', networkconf_id: '0123456789abcdef01234567' }, field: 'networkconf_id', reason: 'an unknown network' },
    // go-unifi's generated WLANPrivatePresharedKeys has only password and networkconf_id: a `mac`
    // binding a key to a client is not the controller's field.
    { entry: { password: 'long-enough-1', networkconf_id: 'DEVICES', mac: 'aa:bb:cc:dd:ee:ff' }, field: 'mac', reason: 'a field a PPSK entry does not have (mac)' },
  ];
  for (const row of refusals) {
    it(`refuses ${row.reason} with validationError.field ${row.field}`, async () => {
      const wlan = sim.wlan('keyed')!;
      const entry = { ...row.entry, networkconf_id: row.entry.networkconf_id === 'DEVICES' ? sim.network('devices')!._id : row.entry.networkconf_id };
      const res = await call('PUT', api(`rest/wlanconf/${wlan._id}`), { private_preshared_keys: [entry] });
      expect(res.status).toBe(400);
      expect(res.body.meta.msg).toBe('api.err.InvalidPayload');
      expect(res.body.data[0].validationError.field).toBe(row.field);
    });
  }

  it('refuses the same password twice in one WLAN', async () => {
    const wlan = sim.wlan('keyed')!;
    const net = sim.network('devices')!._id;
    const entry = { password: 'twice-the-key', networkconf_id: net };
    const res = await call('PUT', api(`rest/wlanconf/${wlan._id}`), { private_preshared_keys: [entry, entry] });
    expect(res.status).toBe(400);
  });

  it('refuses a body that is not a JSON object with api.err.InvalidPayload', async () => {
    const wlan = sim.wlan('keyed')!;
    const res = await call('PUT', api(`rest/wlanconf/${wlan._id}`), [1, 2]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ meta: { rc: 'error', msg: 'api.err.InvalidPayload' }, data: [] });
  });
});

describe('POST /__lab/associate', () => {
  const associate = (body: unknown) => call('POST', `${server.url}/__lab/associate`, body, null);

  it('admits a client holding a PPSK onto that key\'s VLAN', async () => {
    const res = await associate({ ssid: 'keyed', psk: 'first-key-123', mac: '02:00:00:00:00:01' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ vlan: 40, network: 'devices' });
  });

  it('admits any client holding the key: the key alone decides, as on the controller', async () => {
    expect((await associate({ ssid: 'keyed', psk: 'second-key-45', mac: 'AA-BB-CC-00-00-01' })).status).toBe(200);
    expect((await associate({ ssid: 'keyed', psk: 'second-key-45', mac: 'aa:bb:cc:00:00:02' })).status).toBe(200);
  });

  it('refuses an unknown key, and the WLAN passphrase while PPSK is on', async () => {
    expect((await associate({ ssid: 'keyed', psk: 'not-a-key-at-all', mac: '02:00:00:00:00:01' })).status).toBe(403);
    const passphrase = sim.wlan('keyed')!.x_passphrase;
    expect((await associate({ ssid: 'keyed', psk: passphrase, mac: '02:00:00:00:00:01' })).status).toBe(403);
  });

  it('uses the WLAN passphrase and network while PPSK is off', async () => {
    const res = await associate({ ssid: 'plain', psk: 'shared-passphrase', mac: '02:00:00:00:00:03' });
    expect(res.body).toEqual({ vlan: null, network: 'Default' });
  });

  it('answers 404 for an unknown SSID and 400 for a malformed request', async () => {
    expect((await associate({ ssid: 'nope', psk: 'first-key-123', mac: '02:00:00:00:00:01' })).status).toBe(404);
    expect((await associate({ ssid: 'keyed', psk: 'first-key-123', mac: 'bogus' })).status).toBe(400);
  });
});

describe('faults', () => {
  it('fails the next matching call with the injected status, then recovers', async () => {
    await fetch(`${server.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ fail_next: 1, status: 502, match: 'wlanconf' }) });
    expect((await call('GET', api('rest/wlanconf'))).status).toBe(502);
    expect((await call('GET', api('rest/wlanconf'))).status).toBe(200);
  });
});
