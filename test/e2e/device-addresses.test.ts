import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { LAB_TRUST_CLASSES } from '../../apps/lab/backends.js';
import { OUTCOME } from '../../core/search-attributes.js';
import { startKeaFaultProxy, type KeaFaultProxy } from '../support/kea-fault-proxy.js';
import { dig } from '../support/pdns.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { twoWorkers } from '../support/workers.js';
import { expectUnauthorized } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

/**
 * Fixed device addresses through the HTTP API, checked on the real Kea (its `config-get`, read
 * through the adapter's list()) and the real PowerDNS (dig). The site serves the lab's classes
 * plus `badge` (Wi-Fi only, no range) and `tiny` (a range of two), with a share of six
 * addresses per tenant, and reaches Kea through a proxy that can fail chosen commands.
 */
let site: TestSite;
let kea: DeviceAddressAdapter;
let keaProxy: KeaFaultProxy;
const tokens: Record<string, string> = {};
const tenants: Record<string, any> = {};

const CLASSES = {
  ...LAB_TRUST_CLASSES,
  badge: { ssid: 'lab-devices', vlan: 'tenant-devices' },
  tiny: { range: '10.200.0.200-10.200.0.201' },
};

const call = (method: string, path: string, body?: unknown, token?: string | null) => site.call(method, path, { body, token });
const register = (t: string, name: string, trust_class: string, mac?: string) =>
  call('POST', `/v1/tenants/${t}/devices`, { name, trust_class, ...(mac ? { mac } : {}) });
const reserve = (t: string, device: string, body: unknown = {}, token?: string | null) =>
  call('POST', `/v1/tenants/${t}/devices/${device}/address`, body, token);
const release = (t: string, device: string, token?: string | null) => call('DELETE', `/v1/tenants/${t}/devices/${device}/address`, undefined, token);
const reservationOf = async (mac: string) => (await kea.list()).find((r) => r.mac === mac);
const pdnsA = async (fqdn: string) => (await dig(site.backends.pdns.dnsPort, fqdn)).answers;

async function zoneRecords(zone: string): Promise<{ name: string; type: string; records: { content: string }[] }[]> {
  const pdns = site.backends.pdns;
  const res = await fetch(`${pdns.apiUrl}/servers/localhost/zones/${zone}.`, { headers: { 'x-api-key': pdns.apiKey } });
  return res.status === 404 ? [] : ((await res.json()) as { rrsets: never[] }).rrsets;
}

async function tenant(name: string): Promise<void> {
  const r = await call('POST', '/v1/tenants', { name });
  expect(r.status, r.text).toBe(201);
  tokens[name] = r.body.api_token;
  tenants[name] = r.body;
}
/** An address of the tenant's own subnet (`.host`). */
const subnetAddress = (t: string, host: number) => `${tenants[t].network.subnet.split('.').slice(0, 3).join('.')}.${host}`;

beforeAll(async () => {
  keaProxy = await startKeaFaultProxy();
  site = await startTestSite({ env: { SITE_TRUST_CLASSES: JSON.stringify(CLASSES), SITE_DEVICE_SHARE: '6', SITE_DHCP_URL: keaProxy.url } });
  keaProxy.target = site.backends.kea!.controlUrl;
  kea = createKeaAdapter({ controlUrl: site.backends.kea!.controlUrl, subnetId: 1 });
  await Promise.all(['addr', 'other', 'share', 'gone', 'many', 'many2'].map(tenant));
  for (const [name, cls, mac] of [
    ['s1', 'sensor', 'aa:00:00:00:00:01'],
    ['s2', 'sensor', 'AA-00-00-00-00-02'],
    ['c1', 'camera', 'aa0000000003'],
    ['nomac', 'sensor', undefined],
    ['b1', 'badge', 'aa:00:00:00:00:04'],
  ] as const) {
    const r = await register('addr', name, cls, mac);
    expect(r.status, r.text).toBe(201);
  }
});
afterAll(async () => {
  await site?.stop();
  await keaProxy?.close();
});

describe('POST /v1/tenants/{t}/devices/{device}/address', () => {
  it('an empty body takes the lowest free address: reserved for the MAC on Kea, the name published with no PTR', async () => {
    const r = await reserve('addr', 's1');
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({
      device: 's1',
      address: '10.200.0.64',
      mac: 'aa:00:00:00:00:01',
      trust_class: 'sensor',
      fqdn: 's1.addr.lab.example',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await reservationOf('aa:00:00:00:00:01')).toEqual({ mac: 'aa:00:00:00:00:01', address: '10.200.0.64', hostname: 's1' });
    expect(await pdnsA('s1.addr.lab.example')).toEqual(['10.200.0.64']);
    const reverse = await zoneRecords(tenants.addr.dns.reverse_zone);
    expect(reverse.filter((s) => s.type === 'PTR' && s.records.some((x) => x.content.startsWith('s1.')))).toEqual([]);
    expect((await dig(site.backends.pdns.dnsPort, '64.0.200.10.in-addr.arpa', 'PTR')).answers).toEqual([]);
  });

  it('calling again converges and never moves the device; a different address is a 400', async () => {
    const again = await reserve('addr', 's1');
    expect(again.status, again.text).toBe(201);
    expect(again.body.address).toBe('10.200.0.64');
    const same = await reserve('addr', 's1', { address: '10.200.0.64' });
    expect(same.status, same.text).toBe(201);
    const noBody = await site.call('POST', '/v1/tenants/addr/devices/s1/address');
    expect(noBody.status, noBody.text).toBe(201);
    expect(noBody.body.address).toBe('10.200.0.64');
    const moved = await reserve('addr', 's1', { address: '10.200.0.65' });
    expect(moved.status, moved.text).toBe(400);
    expect(moved.body.error).toMatch(/already holds a different address/);
    expect((await kea.list()).filter((x) => x.mac === 'aa:00:00:00:00:01')).toHaveLength(1);
  });

  it('takes a requested address in the range of the trust class', async () => {
    const r = await reserve('addr', 'c1', { address: '10.200.0.130' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ address: '10.200.0.130', mac: 'aa:00:00:00:00:03', trust_class: 'camera' });
    expect(await reservationOf('aa:00:00:00:00:03')).toMatchObject({ address: '10.200.0.130' });
    expect(await pdnsA('c1.addr.lab.example')).toEqual(['10.200.0.130']);
  });

  it('refuses with 400: unregistered device, no MAC, outside the range, no range for the class, not an address', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['ghost', {}, /not registered/],
      ['nomac', {}, /no mac/],
      ['s2', { address: '10.200.0.10' }, /outside the tenant range of trust class "sensor"/],
      ['s2', { address: '10.200.0.130' }, /outside the tenant range/],
      ['b1', {}, /trust class "badge" has no address range/],
      ['s2', { address: 'not-an-ip' }, /address/],
      ['s2', { address: '10.200.0.66', extra: 1 }, /unknown field "extra"/],
    ];
    for (const [device, body, text] of cases) {
      const r = await reserve('addr', device, body);
      expect(r.status, `${device} ${JSON.stringify(body)}: ${r.text}`).toBe(400);
      expect(r.body.error).toMatch(text);
    }
    expect(await reservationOf('aa:00:00:00:00:02')).toBeUndefined();
  });

  it("refuses with 400 a device whose name is already a workload's or a record's", async () => {
    const rec = await call('PUT', '/v1/tenants/addr/records/www', { address: subnetAddress('addr', 77) });
    expect(rec.status, rec.text).toBe(200);
    expect((await register('addr', 'www', 'sensor', 'aa:00:00:00:00:05')).status).toBe(201);
    const r = await reserve('addr', 'www');
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(/already a workload's or a record's/);
    expect(await reservationOf('aa:00:00:00:00:05')).toBeUndefined();
  });

  it('409: the address is taken (without saying by whom)', async () => {
    expect((await register('other', 'o1', 'sensor', 'ba:00:00:00:00:01')).status).toBe(201);
    const r = await reserve('other', 'o1', { address: '10.200.0.64' });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toBe('the address is taken');
    // A reservation on the router the registry does not hold is taken too.
    await kea.ensure({ mac: 'ee:ee:ee:ee:ee:01', address: '10.200.0.66', hostname: 'site-printer' });
    const foreign = await reserve('other', 'o1', { address: '10.200.0.66' });
    expect(foreign.status, foreign.text).toBe(409);
    expect(foreign.body.error).toBe('the address is taken');
  });

  it("409: the device's MAC already holds an address on the device network", async () => {
    // Registered under two names (neither holding an address yet), the hardware gets one address.
    expect((await register('other', 'twin-a', 'sensor', 'ba:00:00:00:00:0b')).status).toBe(201);
    expect((await register('other', 'twin-b', 'camera', 'ba:00:00:00:00:0b')).status).toBe(201);
    expect((await reserve('other', 'twin-a')).status).toBe(201);
    const r = await reserve('other', 'twin-b');
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toMatch(/mac already holds an address/);
    // A router reservation of the MAC outside the class's range (the site's own) counts too.
    await kea.ensure({ mac: 'ba:00:00:00:00:09', address: '10.200.0.20' });
    expect((await register('other', 'o9', 'sensor', 'ba:00:00:00:00:09')).status).toBe(201);
    const held = await reserve('other', 'o9');
    expect(held.status, held.text).toBe(409);
    expect(held.body.error).toMatch(/mac already holds an address/);
    expect(await reservationOf('ba:00:00:00:00:09')).toEqual({ mac: 'ba:00:00:00:00:09', address: '10.200.0.20' });
  });

  it('adopts a router reservation of the MAC in range that the registry lost', async () => {
    await kea.ensure({ mac: 'ba:00:00:00:00:0a', address: '10.200.0.100', hostname: 'o10' });
    expect((await register('other', 'o10', 'sensor', 'ba:00:00:00:00:0a')).status).toBe(201);
    const r = await reserve('other', 'o10');
    expect(r.status, r.text).toBe(201);
    expect(r.body.address).toBe('10.200.0.100');
  });

  it('409: the range is full', async () => {
    for (const [i, name] of ['t1', 't2', 't3'].entries()) {
      expect((await register('other', name, 'tiny', `ba:00:00:00:01:0${i}`)).status).toBe(201);
    }
    expect((await reserve('other', 't1')).body.address).toBe('10.200.0.200');
    expect((await reserve('other', 't2')).body.address).toBe('10.200.0.201');
    const full = await reserve('other', 't3');
    expect(full.status, full.text).toBe(409);
    expect(full.body.error).toMatch(/range of trust class "tiny" is full/);
  });

  it('409: the tenant holds its full share', async () => {
    const names = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7'];
    for (const [i, name] of names.entries()) {
      expect((await register('share', name, 'sensor', `cc:00:00:00:00:0${i}`)).status).toBe(201);
    }
    for (const name of names.slice(0, 6)) expect((await reserve('share', name)).status).toBe(201);
    const r = await reserve('share', 'd7');
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toMatch(/full share of device addresses \(6\)/);
  });

  it('502 {error, address} when the router write did not land; the same call resumes', async () => {
    expect((await register('addr', 's3', 'sensor', 'aa:00:00:00:00:06')).status).toBe(201);
    keaProxy.failNext('config-set', 10);
    const r = await reserve('addr', 's3');
    keaProxy.clear();
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "device-address" failed');
    expect(r.body.address).toMatchObject({ device: 's3', mac: 'aa:00:00:00:00:06', fqdn: 's3.addr.lab.example' });
    // The router's answer is shown as the run holds it (Kea refused the write), with no host.
    expect(r.body.failure).toMatchObject({ step: 'device-address', activity: 'device-address.apply', backend: 'kea' });
    expect(r.text).not.toMatch(/127\.0\.0\.1/);
    expect(await reservationOf('aa:00:00:00:00:06')).toBeUndefined();
    const again = await reserve('addr', 's3');
    expect(again.status, again.text).toBe(201);
    expect(again.body.address).toBe(r.body.address.address);
    expect(await reservationOf('aa:00:00:00:00:06')).toMatchObject({ address: r.body.address.address });
  });

  it('502 {error, address} when the DNS write did not land; the same call resumes', async () => {
    expect((await register('addr', 's4', 'sensor', 'aa:00:00:00:00:07')).status).toBe(201);
    site.backends.pdns.faults.add({ failNext: 10, method: 'PATCH' });
    const r = await reserve('addr', 's4');
    site.backends.pdns.faults.clear();
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "dns" failed');
    expect(r.body.address).toMatchObject({ device: 's4', fqdn: 's4.addr.lab.example' });
    expect(await pdnsA('s4.addr.lab.example')).toEqual([]);
    const again = await reserve('addr', 's4');
    expect(again.status, again.text).toBe(201);
    expect(await pdnsA('s4.addr.lab.example')).toEqual([again.body.address]);
  });

  it('401 without a token, 404 for an unregistered tenant or another tenant token', async () => {
    expectUnauthorized(await reserve('addr', 's2', {}, null));
    const unknown = await reserve('nobody', 's2');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'tenant not found' });
    const foreign = await reserve('addr', 's2', {}, tokens.other);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'tenant not found' });
  });

  it("the tenant's own token may reserve", async () => {
    const r = await reserve('addr', 's2', {}, tokens.addr);
    expect(r.status, r.text).toBe(201);
    expect(r.body.address).toMatch(/^10\.200\.0\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])$/);
  });
});

describe('GET /v1/tenants/{t}/devices/{device}/address', () => {
  it('answers the reservation', async () => {
    const r = await call('GET', '/v1/tenants/addr/devices/s1/address', undefined, tokens.addr);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ device: 's1', address: '10.200.0.64', mac: 'aa:00:00:00:00:01', fqdn: 's1.addr.lab.example' });
  });

  it('404 when no address is held, the device is unknown, or the tenant is unregistered', async () => {
    for (const [path, text] of [
      ['/v1/tenants/addr/devices/nomac/address', 'the device holds no fixed address'],
      ['/v1/tenants/addr/devices/ghost/address', 'the device holds no fixed address'],
      ['/v1/tenants/nobody/devices/s1/address', 'tenant not found'],
    ]) {
      const r = await call('GET', path!);
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual({ error: text });
    }
    expectUnauthorized(await call('GET', '/v1/tenants/addr/devices/s1/address', undefined, null));
    expect((await call('GET', '/v1/tenants/addr/devices/s1/address', undefined, tokens.other)).status).toBe(404);
  });
});

describe('DELETE /v1/tenants/{t}/devices/{device}/address', () => {
  it('400 while a published record points at the address', async () => {
    const rec = await call('PUT', '/v1/tenants/addr/records/cam', { address: '10.200.0.130' });
    expect(rec.status, rec.text).toBe(200);
    const r = await release('addr', 'c1');
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('a published record still points at the address');
    expect(await reservationOf('aa:00:00:00:00:03')).toMatchObject({ address: '10.200.0.130' });
    expect((await call('DELETE', '/v1/tenants/addr/records/cam')).status).toBe(204);
  });

  it('releases: the reservation and the name go; the address is free again', async () => {
    const r = await release('addr', 'c1', tokens.addr);
    expect(r.status, r.text).toBe(204);
    expect(await reservationOf('aa:00:00:00:00:03')).toBeUndefined();
    expect(await pdnsA('c1.addr.lab.example')).toEqual([]);
    expect((await call('GET', '/v1/tenants/addr/devices/c1/address')).status).toBe(404);
    const again = await release('addr', 'c1');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'the device holds no fixed address' });
    const retaken = await reserve('addr', 'c1', { address: '10.200.0.130' });
    expect(retaken.status, retaken.text).toBe(201);
  });

  it('a release ends the parked reserve of that very address now (Outcome superseded), not at the parked timeout', async () => {
    expect((await register('addr', 'c9', 'camera', 'aa:00:00:00:00:19')).status).toBe(201);
    site.backends.pdns.faults.add({ failNext: 10, method: 'PATCH' });
    const r = await reserve('addr', 'c9', { address: '10.200.0.140' });
    site.backends.pdns.faults.clear();
    expect(r.status, r.text).toBe(502);
    const run = site.client.workflow.getHandle('device-address/addr/c9/10.200.0.140');
    expect((await run.describe()).status.name).toBe('RUNNING');
    expect((await release('addr', 'c9')).status).toBe(204);
    await run.result();
    const d = await run.describe();
    expect([d.status.name, d.typedSearchAttributes.get(OUTCOME)]).toEqual(['COMPLETED', 'superseded']);
  });

  it('502 when the router write did not land; repeating it resumes', async () => {
    keaProxy.failNext('config-set', 10);
    const r = await release('addr', 'c1');
    keaProxy.clear();
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "device-address" failed');
    expect(r.body.address).toMatchObject({ device: 'c1', address: '10.200.0.130' });
    expect(await reservationOf('aa:00:00:00:00:03')).toMatchObject({ address: '10.200.0.130' });
    expect((await release('addr', 'c1')).status).toBe(204);
    expect(await reservationOf('aa:00:00:00:00:03')).toBeUndefined();
  });

  it('401 without a token, 404 for an unregistered tenant or another tenant token', async () => {
    expectUnauthorized(await release('addr', 's1', null));
    expect((await release('nobody', 's1')).body).toEqual({ error: 'tenant not found' });
    expect((await release('addr', 's1', tokens.other)).status).toBe(404);
  });
});

describe('reconcile and delete of the tenant', () => {
  it('reconcile restores a reservation deleted behind the service in Kea', async () => {
    await kea.remove({ mac: 'aa:00:00:00:00:01' });
    expect(await reservationOf('aa:00:00:00:00:01')).toBeUndefined();
    const r = await call('POST', '/v1/tenants/addr/reconcile');
    expect(r.status, r.text).toBe(200);
    expect(r.body.steps.find((s: any) => s.name === 'device-address')).toMatchObject({ ok: true });
    expect(await reservationOf('aa:00:00:00:00:01')).toEqual({ mac: 'aa:00:00:00:00:01', address: '10.200.0.64', hostname: 's1' });
  });

  it('tenant delete removes its reservations from Kea', async () => {
    expect((await register('gone', 'g1', 'sensor', 'da:00:00:00:00:01')).status).toBe(201);
    const g1 = await reserve('gone', 'g1');
    expect(g1.status, g1.text).toBe(201);
    site.backends.proxmox.removeTenantNetwork('gone');
    const r = await call('DELETE', '/v1/tenants/gone');
    expect(r.status, r.text).toBe(204);
    expect(await reservationOf('da:00:00:00:00:01')).toBeUndefined();
    // The address is free for another tenant.
    expect((await register('other', 'after', 'sensor', 'da:00:00:00:00:02')).status).toBe(201);
    const after = await reserve('other', 'after', { address: g1.body.address });
    expect(after.status, after.text).toBe(201);
  });
});

describe('tenant delete failing at the device-address step', () => {
  it('answers 502 naming the step and leaves the tenant deleting with its reservation; the repeat removes it (204)', async () => {
    await tenant('dfail');
    expect((await register('dfail', 'd1', 'sensor', 'da:00:00:00:0f:01')).status).toBe(201);
    const d1 = await reserve('dfail', 'd1');
    expect(d1.status, d1.text).toBe(201);
    site.backends.proxmox.removeTenantNetwork('dfail');
    keaProxy.failNext('config-set', 1000);
    let r;
    try {
      r = await call('DELETE', '/v1/tenants/dfail');
    } finally {
      keaProxy.clear();
    }
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "device-address" failed', failure: { step: 'device-address' } });
    expect((await call('GET', '/v1/tenants/dfail')).body.status).toBe('deleting');
    expect(await reservationOf('da:00:00:00:0f:01')).toMatchObject({ address: d1.body.address });
    const again = await call('DELETE', '/v1/tenants/dfail');
    expect(again.status, again.text).toBe(204);
    expect(await reservationOf('da:00:00:00:0f:01')).toBeUndefined();
  });
});

describe('tenant reconcile and restore failing at the device-address step', () => {
  // A tenant runs the device-address step once it holds an address: on a reconcile, and on a
  // create repeated with its secrets (spec: Tenants, restore). Kea's config-get failing fails the
  // step whether or not a write is due.
  let held: { address: string };
  beforeAll(async () => {
    await tenant('rfail');
    expect((await register('rfail', 'r1', 'sensor', 'da:00:00:00:1f:01')).status).toBe(201);
    const r1 = await reserve('rfail', 'r1');
    expect(r1.status, r1.text).toBe(201);
    held = r1.body;
  });
  const underKeaFault = async (work: () => Promise<any>) => {
    keaProxy.failNext('config-get', 1000);
    try {
      return await work();
    } finally {
      keaProxy.clear();
    }
  };
  const reservationsOfTenant = async () => (await kea.list()).filter((x) => x.mac === 'da:00:00:00:1f:01');

  it('a reconcile answers 502 naming the step, with the tenant; the repeat reconciles and puts back a lost reservation', async () => {
    await kea.remove({ mac: 'da:00:00:00:1f:01' });
    const r = await underKeaFault(() => call('POST', '/v1/tenants/rfail/reconcile'));
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "device-address" failed');
    expect(r.body.error).not.toMatch(/127\.0\.0\.1|localhost|http/);
    expect(r.body.tenant.steps.find((s: any) => s.name === 'device-address')).toMatchObject({ ok: false });
    expect(await reservationsOfTenant()).toEqual([]);
    const again = await call('POST', '/v1/tenants/rfail/reconcile');
    expect(again.status, again.text).toBe(200);
    expect(again.body.outcome).toBe('reconciled');
    expect(again.body.steps.find((s: any) => s.name === 'device-address')).toMatchObject({ ok: true });
    expect(await reservationsOfTenant()).toEqual([{ mac: 'da:00:00:00:1f:01', address: held.address, hostname: 'r1' }]);
  });

  it('a create repeated with the secrets answers 502 naming the step with the tenant and its secrets; the repeat answers 200 on the same identity, one reservation', async () => {
    const t = tenants.rfail;
    const body = { name: 'rfail', tsig_secret: t.dns.tsig_secret, state_secret: t.state.secret_key, api_token: t.api_token };
    const failed = await underKeaFault(() => call('POST', '/v1/tenants', body));
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error).toBe('backend step "device-address" failed');
    expect(failed.body.tenant).toMatchObject({ name: 'rfail', index: t.index });
    expect(failed.body.tenant.dns.tsig_secret).toBe(t.dns.tsig_secret);
    expect(failed.body.tenant.api_token).toBe(t.api_token);
    expect(failed.body.tenant.steps.find((s: any) => s.name === 'device-address')).toMatchObject({ ok: false });
    const run = await site.client.workflow.getHandle('tenant-create/rfail').describe();
    expect(run.searchAttributes.Step).toEqual(['device-address']);
    const again = await call('POST', '/v1/tenants', body);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ name: 'rfail', index: t.index, status: 'ready' });
    expect(again.body.dns.tsig_secret).toBe(t.dns.tsig_secret);
    expect(again.body.steps.find((s: any) => s.name === 'device-address')).toMatchObject({ ok: true });
    expect(await reservationsOfTenant()).toEqual([{ mac: 'da:00:00:00:1f:01', address: held.address, hostname: 'r1' }]);
  });
});

describe('two workers', () => {
  it('concurrent reservations on two workers all land on the router (its read-modify-write is serialized)', async () => {
    const two = await twoWorkers(site);
    try {
      // Both workers poll; slow Kea so the changes overlap.
      // Ten, over two tenants (five each, within the share of six), picking from the one shared range.
      const names = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10'];
      const ownerOf = (i: number) => (i < 5 ? 'many' : 'many2');
      for (const [i, name] of names.entries())
        expect((await register(ownerOf(i), name, 'sensor', `ee:00:00:00:00:${String(i).padStart(2, '0')}`)).status).toBe(201);
      keaProxy.latency(100);
      const results = await Promise.all(names.map((name, i) => reserve(ownerOf(i), name)));
      keaProxy.latency(0);
      for (const r of results) expect(r.status, r.text).toBe(201);
      const addresses = results.map((r) => r.body.address);
      expect(new Set(addresses).size).toBe(names.length);
      const router = await kea.list();
      for (const r of results) expect(router).toContainEqual({ mac: r.body.mac, address: r.body.address, hostname: r.body.device });
      // Both processes wrote to the router (the contended write), so the serialization held across processes.
      expect([...(await two.workers('device-address.apply'))].sort()).toEqual([...two.identities].sort());
    } finally {
      keaProxy.latency(0);
      await two.stop();
    }
  });
});

describe('at a site with no DHCP server', () => {
  let bare: TestSite;
  beforeAll(async () => {
    bare = await startTestSite({ env: { SITE_DHCP_URL: '' } });
    expectStatus(await bare.call('POST', '/v1/tenants', { body: { name: 'bare' } }), 201, bare.logs);
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it('the address routes refuse with 501 and a reason', async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const r = await bare.call(method, '/v1/tenants/bare/devices/x1/address', method === 'POST' ? { body: {} } : {});
      expect(r.status, `${method}: ${r.text}`).toBe(501);
      expect(r.body).toEqual({ error: 'no device address ranges at this site (no DHCP server configured)' });
    }
  });
});
