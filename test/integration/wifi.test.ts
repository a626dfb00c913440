import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createUnifiWifiAdapter, type WifiAdapter, type WifiKeyRef } from '../../backends/unifi/unifi.js';
import { generatePsk, isPlaceholderPassword, pskFingerprint } from '../../core/credentials/wifi-psk.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createUnifiSimulator, type UnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';
import { backendError } from '../support/backend-error.js';

// The wifi adapter against the UniFi simulator: what a tenant's devices notice is whether they
// can associate with the key they were flashed with, and onto which VLAN.
const KEY = 'wifi-test-key';
let sim: UnifiSimulator;
let server: RunningServer;
let wifi: WifiAdapter;

const SSID = 'devices';
const ref = (keyId: string, psk: string, ssid = SSID): WifiKeyRef => ({ ssid, keyId, fingerprint: pskFingerprint(keyId, psk) });

async function associate(psk: string, mac = '02:00:00:00:10:01', ssid = SSID): Promise<number | null | 'refused'> {
  const res = await fetch(`${server.url}/__lab/associate`, { method: 'POST', body: JSON.stringify({ ssid, psk, mac }) });
  if (res.status === 403) return 'refused';
  expect(res.status).toBe(200);
  return ((await res.json()) as { vlan: number | null }).vlan;
}

beforeAll(async () => {
  // On the simulator's own networks: Default, tenant-devices (VLAN 40), tenant-dev (41) and blackhole (4000).
  sim = createUnifiSimulator({
    apiKey: KEY,
    wlans: [
      { ssid: SSID, network: 'tenant-devices' },
      { ssid: 'dev', network: 'tenant-dev' },
      { ssid: 'spare', network: 'tenant-devices' },
      { ssid: 'bound', network: 'tenant-dev' },
    ],
  });
  server = await serveApp(sim.app);
  wifi = createUnifiWifiAdapter({ url: server.url, apiKey: KEY, site: 'default', placeholderNetwork: 'blackhole' });
});
afterAll(async () => {
  await server.close();
});

describe('issuing and keeping a key', () => {
  const psk = generatePsk();
  const keyId = 'acme/sensors';

  it('issues a key on the trust class VLAN, turning PPSK on for the WLAN', async () => {
    expect(await associate(psk)).toBe('refused');
    const outcomes = await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId, psk });
    expect(outcomes).toEqual([
      { object: `wifi key ${keyId} on ${SSID}`, result: 'created' },
      { object: `wlan ${SSID} private keys`, result: 'corrected', fields: ['private_preshared_keys_enabled'] },
    ]);
    expect(await associate(psk)).toBe(40);
    expect(sim.wlan(SSID)!.private_preshared_keys_enabled).toBe(true);
  });

  it('keeps the key on a repeated issue without writing to the controller', async () => {
    const writes = sim.state.writes;
    expect(await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId, psk })).toEqual([
      { object: `wifi key ${keyId} on ${SSID}`, result: 'in-place' },
    ]);
    expect(sim.state.writes).toBe(writes);
  });

  it('finds the key by its fingerprint alone, as after the service lost the psk', async () => {
    const seen = await wifi.observe(ref(keyId, psk));
    expect(seen).toMatchObject({ ssid: SSID, keyId, networkName: 'tenant-devices', networkId: sim.network('tenant-devices')!._id });
    expect(seen?.mac).toBeUndefined();
    // A fingerprint is salted with its key id: it finds nothing under another key's id.
    expect(await wifi.observe({ ssid: SSID, keyId: 'acme/other', fingerprint: pskFingerprint(keyId, psk) })).toBeUndefined();
    expect(await wifi.observe(ref(keyId, generatePsk()))).toBeUndefined();
    expect(await wifi.observe(ref(keyId, psk, 'spare'))).toBeUndefined();
  });

  it('accepts the network by controller id as well as by name', async () => {
    const id = sim.network('tenant-devices')!._id;
    expect((await wifi.ensure({ ssid: SSID, vlanNetwork: id, keyId, psk }))[0]!.result).toBe('in-place');
  });

  it('moves a key someone put on another VLAN back to its trust class network', async () => {
    sim.wlan(SSID)!.private_preshared_keys[0]!.networkconf_id = sim.network('Default')!._id;
    expect(await associate(psk)).toBe(null);
    const outcomes = await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId, psk });
    expect(outcomes).toEqual([{ object: `wifi key ${keyId} on ${SSID}`, result: 'corrected', fields: ['network'] }]);
    expect(await associate(psk)).toBe(40);
  });

  it('puts back a key deleted on the controller', async () => {
    const wlan = sim.wlan(SSID)!;
    wlan.private_preshared_keys = wlan.private_preshared_keys.filter((e) => e.password !== psk);
    wlan.private_preshared_keys_enabled = false;
    expect(await associate(psk)).toBe('refused');
    const outcomes = await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId, psk });
    expect(outcomes[0]!.result).toBe('created');
    expect(await associate(psk)).toBe(40);
  });

  it('never puts the psk in an outcome', async () => {
    const outcomes = await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId, psk });
    expect(JSON.stringify(outcomes)).not.toContain(psk);
  });
});

describe("restoring with the tenant's psk", () => {
  it('adopts the controller entry when the tenant supplies the psk it holds', async () => {
    const psk = generatePsk();
    await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId: 'beta/door', psk });
    // The service lost its copy; the tenant sends the same psk back.
    expect((await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId: 'beta/door', psk }))[0]!.result).toBe('in-place');
    expect(await associate(psk)).toBe(40);
  });

  it('makes the controller match a supplied psk and retires the one it held', async () => {
    const held = generatePsk();
    const supplied = generatePsk();
    await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId: 'beta/gate', psk: held });
    const count = sim.wlan(SSID)!.private_preshared_keys.length;
    const outcomes = await wifi.ensure({
      ssid: SSID,
      vlanNetwork: 'tenant-devices',
      keyId: 'beta/gate',
      psk: supplied,
      replaces: [pskFingerprint('beta/gate', held)],
    });
    expect(outcomes).toEqual([{ object: `wifi key beta/gate on ${SSID}`, result: 'corrected', fields: ['psk'] }]);
    expect(await associate(supplied)).toBe(40);
    expect(await associate(held)).toBe('refused');
    expect(sim.wlan(SSID)!.private_preshared_keys).toHaveLength(count);
  });
});

describe("a MAC binding (the bound WLAN's allow-list)", () => {
  const BOUND = 'bound';
  const a = { psk: generatePsk(), keyId: 'acme/admission', mac: 'aa:bb:cc:dd:ee:01' };
  const b = { psk: generatePsk(), keyId: 'beta/admission', mac: 'aa:bb:cc:dd:ee:02' };
  const spec = (k: typeof a) => ({ ssid: BOUND, vlanNetwork: 'tenant-dev', keyId: k.keyId, psk: k.psk, mac: k.mac });

  it("puts the client on the allow-list in the key's own write and turns the filter on", async () => {
    const writes = sim.state.writes;
    expect(await wifi.ensure(spec(a))).toEqual([
      { object: `wifi key ${a.keyId} on ${BOUND}`, result: 'created' },
      { object: `wlan ${BOUND} private keys`, result: 'corrected', fields: ['private_preshared_keys_enabled'] },
      { object: `wlan ${BOUND} MAC filter`, result: 'corrected', fields: ['mac_filter_enabled', 'mac_filter_policy'] },
    ]);
    expect(sim.state.writes).toBe(writes + 1);
    const wlan = sim.wlan(BOUND)!;
    expect([wlan.mac_filter_enabled, wlan.mac_filter_policy, wlan.mac_filter_list]).toEqual([true, 'allow', [a.mac]]);
    expect(await associate(a.psk, a.mac, BOUND)).toBe(41);
    expect(await associate(a.psk, 'aa:bb:cc:dd:ee:99', BOUND)).toBe('refused');
    // The PPSK entry itself still carries only the fields the controller defines.
    expect(Object.keys(wlan.private_preshared_keys.find((e) => e.password === a.psk)!).sort()).toEqual(['networkconf_id', 'password']);
  });

  it('keeps both clients when a second key is bound, and a repeat writes nothing', async () => {
    await wifi.ensure(spec(b));
    expect(sim.wlan(BOUND)!.mac_filter_list).toEqual([a.mac, b.mac]);
    const writes = sim.state.writes;
    expect(await wifi.ensureKeys(BOUND, [spec(a), spec(b)], false)).toEqual([
      { object: `wifi key ${a.keyId} on ${BOUND}`, result: 'in-place' },
      { object: `wifi key ${b.keyId} on ${BOUND}`, result: 'in-place' },
    ]);
    expect(sim.state.writes).toBe(writes);
    expect((await wifi.observe({ ...ref(a.keyId, a.psk, BOUND), releaseMac: a.mac }))?.mac).toBe(a.mac);
  });

  it('puts back a client an operator took off the list, naming the field, and a plan only reports it', async () => {
    sim.wlan(BOUND)!.mac_filter_list = [b.mac];
    const writes = sim.state.writes;
    const drift = [
      { object: `wifi key ${a.keyId} on ${BOUND}`, result: 'corrected', fields: ['mac'] },
      { object: `wifi key ${b.keyId} on ${BOUND}`, result: 'in-place' },
    ];
    expect(await wifi.ensureKeys(BOUND, [spec(a), spec(b)], true)).toEqual(drift);
    expect(sim.state.writes).toBe(writes);
    expect(await associate(a.psk, a.mac, BOUND)).toBe('refused');
    expect(await wifi.ensureKeys(BOUND, [spec(a), spec(b)], false)).toEqual(drift);
    expect(await associate(a.psk, a.mac, BOUND)).toBe(41);
  });

  it('takes the client off the list with its key; the filter stays on', async () => {
    await wifi.remove({ ...ref(a.keyId, a.psk, BOUND), releaseMac: a.mac });
    const wlan = sim.wlan(BOUND)!;
    expect(wlan.mac_filter_list).toEqual([b.mac]);
    expect(await associate(a.psk, a.mac, BOUND)).toBe('refused');
    expect(await associate(b.psk, b.mac, BOUND)).toBe(41);
    await wifi.remove({ ...ref(b.keyId, b.psk, BOUND), releaseMac: b.mac });
    expect([wlan.mac_filter_enabled, wlan.mac_filter_list]).toEqual([true, []]);
    expect(await associate(b.psk, b.mac, BOUND)).toBe('refused');
  });

  it('a MAC the key no longer holds leaves the list in the ensure that rebinds it', async () => {
    await wifi.ensure(spec(a));
    await wifi.ensure({ ...spec(a), mac: 'aa:bb:cc:dd:ee:03', releaseMacs: [a.mac] });
    expect(sim.wlan(BOUND)!.mac_filter_list).toEqual(['aa:bb:cc:dd:ee:03']);
  });

  it('the simulator refuses what the controller refuses: a MAC not in the colon form, an unknown policy, an unknown WLAN field', async () => {
    const id = sim.wlan(BOUND)!._id;
    const put = (body: unknown) =>
      fetch(`${server.url}/proxy/network/api/s/default/rest/wlanconf/${id}`, {
        method: 'PUT',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => [r.status, ((await r.json()) as { data: Array<{ validationError?: { field?: string } }> }).data[0]?.validationError?.field]);
    expect(await put({ mac_filter_list: ['AA-BB-CC-DD-EE-04'] })).toEqual([400, 'mac_filter_list']);
    expect(await put({ mac_filter_policy: 'block' })).toEqual([400, 'mac_filter_policy']);
    expect(await put({ mac_filter_enabled: 'yes' })).toEqual([400, 'mac_filter_enabled']);
    expect(await put({ mac_binding: ['aa:bb:cc:dd:ee:04'] })).toEqual([400, 'mac_binding']);
  });
});

describe('revoking', () => {
  it('stops a device from associating and leaves other keys working', async () => {
    const mine = generatePsk();
    const theirs = generatePsk();
    await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId: 'gamma/cam', psk: mine });
    await wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', keyId: 'delta/cam', psk: theirs });
    expect(await associate(mine)).toBe(40);
    await wifi.remove(ref('gamma/cam', mine));
    expect(await associate(mine)).toBe('refused');
    expect(await associate(theirs)).toBe(40);
    expect(await wifi.observe(ref('gamma/cam', mine))).toBeUndefined();
  });

  it('is idempotent: revoking an absent key or on an unknown SSID writes nothing', async () => {
    const writes = sim.state.writes;
    await wifi.remove(ref('gamma/cam', 'never-issued-key'));
    await wifi.remove(ref('gamma/cam', 'never-issued-key', 'no-such-ssid'));
    expect(sim.state.writes).toBe(writes);
  });

  it('leaves one unusable placeholder on the blackhole network when the last key goes', async () => {
    const psk = generatePsk();
    await wifi.ensure({ ssid: 'dev', vlanNetwork: 'tenant-dev', keyId: 'acme/laptop', psk });
    expect(await associate(psk, '02:00:00:00:20:01', 'dev')).toBe(41);

    await wifi.remove(ref('acme/laptop', psk, 'dev'));
    const wlan = sim.wlan('dev')!;
    expect(wlan.private_preshared_keys_enabled).toBe(true);
    expect(wlan.private_preshared_keys).toHaveLength(1);
    const placeholder = wlan.private_preshared_keys[0]!;
    expect(isPlaceholderPassword(placeholder.password)).toBe(true);
    expect(placeholder.networkconf_id).toBe(sim.network('blackhole')!._id);
    expect(await associate(psk, '02:00:00:00:20:01', 'dev')).toBe('refused');
    expect(await associate(wlan.x_passphrase, '02:00:00:00:20:01', 'dev')).toBe('refused');
    // The placeholder belongs to no key, so nothing the service holds can find it.
    expect(await wifi.observe(ref('acme/laptop', placeholder.password, 'dev'))).toBeUndefined();
  });

  it('drops the placeholder when a key is issued again', async () => {
    const psk = generatePsk();
    await wifi.ensure({ ssid: 'dev', vlanNetwork: 'tenant-dev', keyId: 'acme/laptop', psk });
    const entries = sim.wlan('dev')!.private_preshared_keys;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.password).toBe(psk);
    expect(await associate(psk, '02:00:00:00:20:05', 'dev')).toBe(41);
  });

  it("uses the revoked key's own network for the placeholder when the site names none", async () => {
    const plain = createUnifiWifiAdapter({ url: server.url, apiKey: KEY });
    const psk = generatePsk();
    await plain.ensure({ ssid: 'spare', vlanNetwork: 'tenant-devices', keyId: 'acme/one', psk });
    await plain.remove(ref('acme/one', psk, 'spare'));
    const entries = sim.wlan('spare')!.private_preshared_keys;
    expect(entries).toHaveLength(1);
    expect(isPlaceholderPassword(entries[0]!.password)).toBe(true);
    expect(entries[0]!.networkconf_id).toBe(sim.network('tenant-devices')!._id);
    expect(await associate(psk, '02:00:00:00:10:01', 'spare')).toBe('refused');
  });
});

describe('concurrent writes from one adapter', () => {
  it('keeps every key when several are issued at once on one SSID', async () => {
    const keys = Array.from({ length: 6 }, (_, i) => ({ keyId: `par/k${i}`, psk: generatePsk() }));
    await Promise.all(keys.map((k) => wifi.ensure({ ssid: SSID, vlanNetwork: 'tenant-devices', ...k })));
    for (const k of keys) expect(await associate(k.psk)).toBe(40);
    await Promise.all(keys.map((k) => wifi.remove(ref(k.keyId, k.psk))));
    for (const k of keys) expect(await associate(k.psk)).toBe('refused');
  });
});

describe('failures', () => {
  const spec = { ssid: SSID, vlanNetwork: 'tenant-devices', keyId: 'fail/key', psk: generatePsk() };

  it('reports an unknown network or SSID as a refusal, not worth retrying', async () => {
    expect((await backendError(wifi.ensure({ ...spec, vlanNetwork: 'nope' }))).retryable).toBe(false);
    expect((await backendError(wifi.ensure({ ...spec, ssid: 'nope' }))).retryable).toBe(false);
  });

  it('refuses a psk outside the passphrase rules', async () => {
    expect((await backendError(wifi.ensure({ ...spec, psk: 'short' }))).retryable).toBe(false);
  });

  it('reports a wrong API key as a 401 refusal', async () => {
    const bad = createUnifiWifiAdapter({ url: server.url, apiKey: 'wrong' });
    const e = await backendError(bad.ensure(spec));
    expect(e.status).toBe(401);
    expect(e.retryable).toBe(false);
    expect(e.detail).toContain('api.err.LoginRequired');
  });

  it('an API key the controller lets read but not write: the refused write names the fix, unretried', async () => {
    sim.state.keyAccess = 'read-only';
    try {
      const e = await backendError(wifi.ensure({ ...spec, keyId: 'fail/readonly' }));
      expect(e.status).toBe(403);
      expect(e.retryable).toBe(false);
      expect(e.detail).toMatch(
        /PUT rest\/wlanconf\/\w+ -> 403 api\.err\.NoPermission: the API key may read but not write .*SITE_WIFI_USERNAME and SITE_WIFI_PASSWORD/,
      );
      expect(e.detail).not.toContain(KEY);
    } finally {
      sim.state.keyAccess = 'full';
    }
  });

  it('reports a controller 502 as retryable, and the repeated call lands', async () => {
    await fetch(`${server.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ fail_next: 1, status: 502, match: 'wlanconf', method: 'PUT' }) });
    const e = await backendError(wifi.ensure(spec));
    expect(e.retryable).toBe(true);
    expect(e.detail).not.toContain(spec.psk);
    expect(await associate(spec.psk)).toBe('refused');
    expect((await wifi.ensure(spec))[0]!.result).toBe('created');
    expect(await associate(spec.psk)).toBe(40);
  });

  it('keeps passwords out of the error detail of a refused write', async () => {
    await fetch(`${server.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ fail_next: 1, status: 400, match: 'wlanconf', method: 'PUT' }) });
    const other = { ...spec, keyId: 'fail/other', psk: generatePsk() };
    const e = await backendError(wifi.ensure(other));
    expect(e.retryable).toBe(false);
    for (const entry of sim.wlan(SSID)!.private_preshared_keys) expect(e.detail).not.toContain(entry.password);
  });
});
