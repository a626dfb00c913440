import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { startKeaFaultProxy, type KeaFaultProxy } from '../support/kea-fault-proxy.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectTenantScopedReads } from '../support/lab-calls.js';
import { expectUnauthorized } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

/**
 * The device registry through the HTTP API. An entry is identity only: registering writes to no
 * backend, except that a fixed address the device holds follows its new MAC on the router (real
 * Kea, reached through a proxy that can fail chosen commands). The lab serves `sensor` and `camera`.
 */
let site: TestSite;
let kea: DeviceAddressAdapter;
let keaProxy: KeaFaultProxy;
const tokens: Record<string, string> = {};

const register = (t: string, body: unknown, token?: string | null) => site.call('POST', `/v1/tenants/${t}/devices`, { body, token });
const reservationOf = async (mac: string) => (await kea.list()).find((r) => r.mac === mac);

beforeAll(async () => {
  keaProxy = await startKeaFaultProxy();
  site = await startTestSite({ env: { SITE_DHCP_URL: keaProxy.url } });
  keaProxy.target = site.backends.kea!.controlUrl;
  kea = createKeaAdapter({ controlUrl: site.backends.kea!.controlUrl, subnetId: 1 });
  for (const name of ['devs', 'peer']) {
    const r = await site.call('POST', '/v1/tenants', { body: { name } });
    expect(r.status, r.text).toBe(201);
    tokens[name] = r.body.api_token;
  }
});
afterAll(async () => {
  await site?.stop();
  await keaProxy?.close();
});

describe('POST /v1/tenants/{t}/devices', () => {
  it('registers a device: identity only, written to no backend', async () => {
    const keaBefore = await kea.list();
    const wifiWrites = site.backends.unifi!.state.writes;
    const r = await register('devs', { name: 'sensor-1', trust_class: 'sensor', mac: 'aa:bb:cc:00:00:01' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({
      name: 'sensor-1',
      trust_class: 'sensor',
      mac: 'aa:bb:cc:00:00:01',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await kea.list()).toEqual(keaBefore);
    expect(site.backends.unifi!.state.writes).toBe(wifiWrites);
  });

  it('accepts the MAC in each documented form and stores it lowercase colon-separated', async () => {
    for (const [name, mac] of [
      ['m-colon', 'AA:BB:CC:00:00:02'],
      ['m-dash', 'AA-BB-CC-00-00-03'],
      ['m-bare', 'AABBCC000004'],
    ]) {
      const r = await register('devs', { name, trust_class: 'camera', mac });
      expect(r.status, r.text).toBe(201);
      expect(r.body.mac).toBe(mac!.replace(/[:-]/g, '').toLowerCase().match(/../g)!.join(':'));
    }
  });

  it('a device without a MAC carries none', async () => {
    const r = await register('devs', { name: 'bare', trust_class: 'sensor' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).not.toHaveProperty('mac');
  });

  it('registering again converges; only the MAC changes', async () => {
    const first = (await site.call('GET', '/v1/tenants/devs/devices/sensor-1')).body;
    const same = await register('devs', { name: 'sensor-1', trust_class: 'sensor', mac: 'AA-BB-CC-00-00-01' });
    expect(same.status, same.text).toBe(201);
    expect(same.body).toEqual(first);
    const changed = await register('devs', { name: 'sensor-1', trust_class: 'sensor', mac: 'aa:bb:cc:00:00:11' });
    expect(changed.status, changed.text).toBe(201);
    expect(changed.body).toMatchObject({ name: 'sensor-1', trust_class: 'sensor', mac: 'aa:bb:cc:00:00:11', created_at: first.created_at });
    expect(Date.parse(changed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.updated_at));
    const cleared = await register('devs', { name: 'bare', trust_class: 'sensor', mac: 'aa:bb:cc:00:00:12' });
    expect(cleared.body.mac).toBe('aa:bb:cc:00:00:12');
    const back = await register('devs', { name: 'bare', trust_class: 'sensor', mac: null });
    expect(back.status, back.text).toBe(201);
    expect(back.body).not.toHaveProperty('mac');
  });

  it('400: the trust class cannot change', async () => {
    const r = await register('devs', { name: 'sensor-1', trust_class: 'camera', mac: 'aa:bb:cc:00:00:11' });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(/trust class cannot change/);
    expect((await site.call('GET', '/v1/tenants/devs/devices/sensor-1')).body.trust_class).toBe('sensor');
  });

  it('400: a trust class the site does not serve, naming the classes it serves', async () => {
    const r = await register('devs', { name: 'thermo', trust_class: 'thermostat' });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ error: 'trust_class: not served at this site; it serves: camera, sensor' });
  });

  it('400: invalid requests (bad MAC, bad name, missing or unknown field)', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: 'x1', trust_class: 'sensor', mac: 'aa:bb:cc:dd:ee' }, /mac/],
      [{ name: 'x1', trust_class: 'sensor', mac: 'aa:bb-cc:dd:ee:ff' }, /mac/],
      [{ name: 'X1', trust_class: 'sensor' }, /name/],
      [{ name: '-x1', trust_class: 'sensor' }, /name/],
      [{ name: 'x'.repeat(21), trust_class: 'sensor' }, /name/],
      [{ name: 'x1' }, /trust_class: required/],
      [{ name: 'x1', trust_class: 'sensor', address: '10.200.0.70' }, /unknown field "address"/],
    ];
    for (const [body, text] of cases) {
      const r = await register('devs', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatch(text);
    }
  });

  it('401 without a token; 404 for an unregistered tenant or another tenant token', async () => {
    expectUnauthorized(await register('devs', { name: 'x2', trust_class: 'sensor' }, null));
    const unknown = await register('nobody', { name: 'x2', trust_class: 'sensor' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'tenant not found' });
    const foreign = await register('devs', { name: 'x2', trust_class: 'sensor' }, tokens.peer);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'tenant not found' });
    const own = await register('devs', { name: 'x2', trust_class: 'sensor' }, tokens.devs);
    expect(own.status, own.text).toBe(201);
  });
});

describe('a device holding a fixed address', () => {
  beforeAll(async () => {
    expect((await register('devs', { name: 'held', trust_class: 'sensor', mac: 'aa:bb:cc:00:01:01' })).status).toBe(201);
    const r = await site.call('POST', '/v1/tenants/devs/devices/held/address', { body: {} });
    expect(r.status, r.text).toBe(201);
    expect(await reservationOf('aa:bb:cc:00:01:01')).toMatchObject({ address: r.body.address });
  });

  it('400: its MAC cannot be cleared', async () => {
    for (const body of [
      { name: 'held', trust_class: 'sensor' },
      { name: 'held', trust_class: 'sensor', mac: null },
    ]) {
      const r = await register('devs', body);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toMatch(/mac cannot be cleared/);
    }
    expect((await site.call('GET', '/v1/tenants/devs/devices/held')).body.mac).toBe('aa:bb:cc:00:01:01');
  });

  it('409: a MAC that already holds an address on the device network', async () => {
    expect((await register('peer', { name: 'p1', trust_class: 'sensor', mac: 'aa:bb:cc:00:02:01' })).status).toBe(201);
    expectStatus(await site.call('POST', '/v1/tenants/peer/devices/p1/address', { body: {} }), 201, site.logs);
    const r = await register('devs', { name: 'held', trust_class: 'sensor', mac: 'AA:BB:CC:00:02:01' });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toMatch(/already holds an address/);
    const fresh = await register('devs', { name: 'copycat', trust_class: 'sensor', mac: 'aa:bb:cc:00:02:01' });
    expect(fresh.status, fresh.text).toBe(409);
    expect((await site.call('GET', '/v1/tenants/devs/devices/held')).body.mac).toBe('aa:bb:cc:00:01:01');
  });

  it('a new MAC takes over the address on the router (the hardware behind the name changed)', async () => {
    const before = (await site.call('GET', '/v1/tenants/devs/devices/held/address')).body;
    const r = await register('devs', { name: 'held', trust_class: 'sensor', mac: 'aa:bb:cc:00:01:02' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.mac).toBe('aa:bb:cc:00:01:02');
    expect(await reservationOf('aa:bb:cc:00:01:01')).toBeUndefined();
    expect(await reservationOf('aa:bb:cc:00:01:02')).toEqual({ mac: 'aa:bb:cc:00:01:02', address: before.address, hostname: 'held' });
    const after = (await site.call('GET', '/v1/tenants/devs/devices/held/address')).body;
    expect(after).toMatchObject({ address: before.address, mac: 'aa:bb:cc:00:01:02', created_at: before.created_at });
  });

  it('502 {error, device} when the move did not land on the router; the same call resumes', async () => {
    keaProxy.failNext('config-set', 10);
    const r = await register('devs', { name: 'held', trust_class: 'sensor', mac: 'aa:bb:cc:00:01:03' });
    keaProxy.clear();
    expect(r.status, r.text).toBe(502);
    expect(r.body).toEqual({
      error: 'backend step "device-address" failed',
      device: expect.objectContaining({ name: 'held', mac: 'aa:bb:cc:00:01:03' }),
      failure: expect.objectContaining({ step: 'device-address', backend: 'kea' }),
    });
    expect(await reservationOf('aa:bb:cc:00:01:03')).toBeUndefined();
    const again = await register('devs', { name: 'held', trust_class: 'sensor', mac: 'aa:bb:cc:00:01:03' });
    expect(again.status, again.text).toBe(201);
    expect(await reservationOf('aa:bb:cc:00:01:03')).toMatchObject({ hostname: 'held' });
    expect(await reservationOf('aa:bb:cc:00:01:02')).toBeUndefined();
  });

  it('DELETE is refused with 400 while it holds the address, and works once released', async () => {
    const r = await site.call('DELETE', '/v1/tenants/devs/devices/held');
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ error: 'the device still holds a fixed address; release it first' });
    expectStatus(await site.call('DELETE', '/v1/tenants/devs/devices/held/address'), 204, site.logs);
    const again = await site.call('DELETE', '/v1/tenants/devs/devices/held', { token: tokens.devs });
    expect(again.status, again.text).toBe(204);
    expectStatus(await site.call('GET', '/v1/tenants/devs/devices/held'), 404, site.logs);
  });
});

describe('GET /v1/tenants/{t}/devices[/{device}]', () => {
  it('lists the devices by name; the tenant reads its own', async () => {
    const r = await site.call('GET', '/v1/tenants/devs/devices', { token: tokens.devs });
    expect(r.status, r.text).toBe(200);
    const names = r.body.devices.map((d: any) => d.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['bare', 'm-bare', 'm-colon', 'm-dash', 'sensor-1', 'x2']));
    expect(r.body.devices.find((d: any) => d.name === 'm-dash')).toEqual({
      name: 'm-dash',
      trust_class: 'camera',
      mac: 'aa:bb:cc:00:00:03',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await site.call('GET', '/v1/tenants/peer/devices')).body.devices.map((d: any) => d.name)).toEqual(['p1']);
  });

  it('answers one device; 404 for an unknown one', async () => {
    const r = await site.call('GET', '/v1/tenants/devs/devices/m-colon');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'm-colon', trust_class: 'camera', mac: 'aa:bb:cc:00:00:02' });
    const missing = await site.call('GET', '/v1/tenants/devs/devices/ghost');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'device not found' });
  });

  it('401 without a token; 404 for an unregistered tenant or another tenant token', async () => {
    await expectTenantScopedReads(site, ['/v1/tenants/devs/devices', '/v1/tenants/devs/devices/m-colon'], tokens.peer!);
  });
});

describe('DELETE /v1/tenants/{t}/devices/{device}', () => {
  it('removes the entry; 404 once gone', async () => {
    expectStatus(await site.call('DELETE', '/v1/tenants/devs/devices/m-bare'), 204, site.logs);
    const again = await site.call('DELETE', '/v1/tenants/devs/devices/m-bare');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'device not found' });
  });

  it('401 without a token; 404 for an unregistered tenant or another tenant token', async () => {
    expectUnauthorized(await site.call('DELETE', '/v1/tenants/devs/devices/m-dash', { token: null }));
    expectStatus(await site.call('DELETE', '/v1/tenants/devs/devices/m-dash', { token: tokens.peer }), 404, site.logs);
    expect((await site.call('DELETE', '/v1/tenants/nobody/devices/m-dash')).body).toEqual({ error: 'tenant not found' });
    expectStatus(await site.call('GET', '/v1/tenants/devs/devices/m-dash'), 200, site.logs);
  });
});
