import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deviceAddresses } from '../../db/schema/index.js';
import { dig, nsupdate } from '../support/pdns.js';
import { answered, clientFor } from '../support/client.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectUnauthorized } from '../support/tenant-body.js';

/**
 * Published names through the HTTP API (spec: Record, Records), checked with dig against the
 * lab's real PowerDNS: subnet addresses with their PTR, device addresses with none, and the
 * names the tenant publishes itself with its own key left alone.
 */
let site: TestSite;
let acme: any;
let other: any;
const DEVICE_ADDRESS = '10.200.0.130';

beforeAll(async () => {
  site = await startTestSite({ minimal: true });
  const a = await answered(clientFor(site).POST('/v1/tenants', { body: { name: 'acme' } }));
  expect(a.status, a.text).toBe(201);
  acme = a.body;
  const o = await answered(clientFor(site).POST('/v1/tenants', { body: { name: 'other' } }));
  expect(o.status, o.text).toBe(201);
  other = o.body;
  // A device address reservation as the device-address routes leave it in the registry.
  await site.registry.db
    .insert(deviceAddresses)
    .values({ tenant: 'acme', device: 'cam1', trustClass: 'camera', address: DEVICE_ADDRESS, mac: 'aa:bb:cc:00:00:01' });
  const w = await answered(clientFor(site).POST('/v1/tenants/{t}/workloads', { params: { path: { t: 'acme' } }, body: { name: 'web' } }));
  expect(w.status, w.text).toBe(201);
});
afterAll(async () => {
  await site?.stop();
});
afterEach(() => {
  site.backends.pdns.faults.clear();
});

const port = () => site.backends.pdns.dnsPort;
const zone = () => acme.dns.zone as string;
const reverseName = (address: string) => `${address.split('.').reverse().join('.')}.in-addr.arpa`;
// Through the typed client, as a caller's code would; malformed requests go through `site.call`.
const put = (record: string, body: { address: string }, token?: string | null) =>
  answered(clientFor(site, token).PUT('/v1/tenants/{t}/records/{record}', { params: { path: { t: 'acme', record } }, body }));
const putRaw = (name: string, body: unknown) => site.call('PUT', `/v1/tenants/acme/records/${name}`, { body });
const del = (record: string, token?: string) =>
  answered(clientFor(site, token).DELETE('/v1/tenants/{t}/records/{record}', { params: { path: { t: 'acme', record } } }));
const list = (token?: string) => answered(clientFor(site, token).GET('/v1/tenants/{t}/records', { params: { path: { t: 'acme' } } }));
const a = async (name: string) => (await dig(port(), `${name}.${zone()}`)).answers;
const ptr = async (address: string) => (await dig(port(), reverseName(address), 'PTR')).answers;

describe('publishing a record for a subnet address', () => {
  let www: any;
  beforeAll(async () => {
    const r = await put('www', { address: '10.128.1.20' }, acme.api_token);
    expect(r.status, r.text).toBe(200);
    www = r.body;
  });

  it('answers 200 with the record', () => {
    expect(www).toEqual({
      tenant: 'acme',
      name: 'www',
      fqdn: 'www.acme.lab.example',
      address: '10.128.1.20',
      kind: 'subnet',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('publishes <record>.<zone> and its PTR', async () => {
    expect(await a('www')).toEqual(['10.128.1.20']);
    expect(await ptr('10.128.1.20')).toEqual(['www.acme.lab.example.']);
  });

  it('a repeated PUT converges on the same record', async () => {
    const r = await put('www', { address: '10.128.1.20' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.created_at).toBe(www.created_at);
  });

  it('a PUT with another address moves the name and its PTR', async () => {
    const r = await put('www', { address: '10.128.1.21' }, acme.api_token);
    expect(r.status, r.text).toBe(200);
    expect(await a('www')).toEqual(['10.128.1.21']);
    expect(await ptr('10.128.1.21')).toEqual(['www.acme.lab.example.']);
    expect(await ptr('10.128.1.20')).toEqual([]);
  });

  it("a second name for a workload's address leaves the PTR with the workload", async () => {
    const r = await put('site', { address: '10.128.1.10' });
    expect(r.status, r.text).toBe(200);
    expect(await a('site')).toEqual(['10.128.1.10']);
    expect(await ptr('10.128.1.10')).toEqual(['web.acme.lab.example.']);
  });

  it('two records on one address: the first holds the PTR, which moves to the second when the first goes', async () => {
    expect((await put('a1', { address: '10.128.1.30' })).status).toBe(200);
    expect((await put('a2', { address: '10.128.1.30' })).status).toBe(200);
    expect(await ptr('10.128.1.30')).toEqual(['a1.acme.lab.example.']);
    expect((await del('a1')).status).toBe(204);
    expect(await ptr('10.128.1.30')).toEqual(['a2.acme.lab.example.']);
    expect((await del('a2')).status).toBe(204);
    expect(await ptr('10.128.1.30')).toEqual([]);
    expect((await dig(port(), `a2.${zone()}`)).status).toBe('NXDOMAIN');
  });

  it('GET lists the names the tenant added (not its workloads), by name', async () => {
    const r = await list(acme.api_token);
    expect(r.status).toBe(200);
    expect(r.body.records.map((x: any) => [x.name, x.address, x.kind])).toEqual([
      ['site', '10.128.1.10', 'subnet'],
      ['www', '10.128.1.21', 'subnet'],
    ]);
  });
});

describe("publishing a record for a device's address", () => {
  it('gets a second name and no PTR', async () => {
    const r = await put('camera', { address: DEVICE_ADDRESS });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ name: 'camera', address: DEVICE_ADDRESS, kind: 'device' });
    expect(await a('camera')).toEqual([DEVICE_ADDRESS]);
    expect(await ptr(DEVICE_ADDRESS)).toEqual([]);
  });

  it("the device's own name is refused (400)", async () => {
    const r = await put('cam1', { address: DEVICE_ADDRESS });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `"cam1.acme.lab.example" is already published for a device's address` });
  });
});

describe('requests that are refused', () => {
  type Row = { reason: string; name: string; body: unknown; error: string | RegExp };
  // The refusal of an address names it, and why it is not the tenant's.
  const OUTSIDE = "is neither in the tenant's subnet 10.128.1.0/24 nor reserved for one of its devices";
  const NOT_A_HOST = "is not a host address of the tenant's subnet 10.128.1.0/24";
  const refusedAddress = (reason: string, address: string, why: string): Row => ({ reason, name: 'x', body: { address }, error: `address ${address} ${why}` });
  const rows: Row[] = [
    refusedAddress('an address outside the subnet and not a device address', '192.0.2.10', OUTSIDE),
    refusedAddress("another tenant's subnet", '10.128.2.10', OUTSIDE),
    refusedAddress('the network address', '10.128.1.0', NOT_A_HOST),
    refusedAddress('the broadcast address', '10.128.1.255', NOT_A_HOST),
    { reason: 'not an IPv4 address', name: 'x', body: { address: 'web' }, error: /^address: / },
    { reason: 'no address', name: 'x', body: {}, error: 'address: required' },
    { reason: 'an unknown field', name: 'x', body: { address: '10.128.1.40', ttl: 5 }, error: 'unknown field "ttl"' },
    { reason: 'a label with an underscore', name: 'bad_label', body: { address: '10.128.1.40' }, error: /^record: must be a DNS label/ },
    { reason: 'an upper-case label', name: 'Www', body: { address: '10.128.1.40' }, error: /^record: must be a DNS label/ },
    { reason: 'a label ending with a dash', name: 'x-', body: { address: '10.128.1.40' }, error: /^record: must be a DNS label/ },
    { reason: 'a label of 64 characters', name: 'a'.repeat(64), body: { address: '10.128.1.40' }, error: /^record: must be a DNS label/ },
    { reason: "a workload's name", name: 'web', body: { address: '10.128.1.40' }, error: `"web.acme.lab.example" is a workload's name` },
  ];
  for (const row of rows) {
    it(`400: ${row.reason}`, async () => {
      const r = await putRaw(row.name, row.body);
      expect(r.status, r.text).toBe(400);
      if (typeof row.error === 'string') expect(r.body).toEqual({ error: row.error });
      else expect(r.body.error).toMatch(row.error);
    });
  }

  it("a workload may not take a record's name (400)", async () => {
    const r = await answered(clientFor(site).POST('/v1/tenants/{t}/workloads', { params: { path: { t: 'acme' } }, body: { name: 'www' } }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: '"www.acme.lab.example" is already published as a record; delete the record or choose another name' });
  });

  it('401 without a token or with an unknown one', async () => {
    expectUnauthorized(await put('x', { address: '10.128.1.40' }, null));
    expectUnauthorized(await list('nope'));
    expectUnauthorized(await answered(clientFor(site, null).DELETE('/v1/tenants/{t}/records/{record}', { params: { path: { t: 'acme', record: 'www' } } })));
  });

  it("404 for another tenant's token and for an unknown tenant; the records are untouched", async () => {
    for (const [method, path, body] of [
      ['PUT', '/v1/tenants/acme/records/www', { address: '10.128.1.99' }],
      ['GET', '/v1/tenants/acme/records', undefined],
      ['DELETE', '/v1/tenants/acme/records/www', undefined],
    ] as const) {
      const theirs = await site.call(method, path, { token: other.api_token, body });
      expect(theirs.status, `${method} ${path}`).toBe(404);
      expect(theirs.body).toEqual({ error: 'tenant not found' });
      const unknown = await site.call(method, path.replace('/acme/', '/nobody/'), { body });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'tenant not found' });
    }
    expect(await a('www')).toEqual(['10.128.1.21']);
  });

  it('DELETE of a record that is not there is 404', async () => {
    const r = await del('ghost');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'record not found' });
  });
});

describe('names the tenant publishes itself with its update key', () => {
  const key = () => `hmac-sha256:${acme.dns.tsig_key_name}:${acme.dns.tsig_secret}`;

  beforeAll(async () => {
    const f = await nsupdate(port(), zone(), key(), [`update add mine.${zone()}. 300 A 10.128.1.77`]);
    expect(f.ok, f.output).toBe(true);
    const r = await nsupdate(port(), acme.dns.reverse_zone, key(), [`update add ${reverseName('10.128.1.77')}. 300 PTR mine.${zone()}.`]);
    expect(r.ok, r.output).toBe(true);
  });

  it('a PUT of that name is refused (400)', async () => {
    const r = await put('mine', { address: '10.128.1.78' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: '"mine" is already published in the tenant zone by the tenant itself; remove it or choose another name' });
  });

  it('stay through PUT and DELETE of other records and through reconcile', async () => {
    expect((await put('alias', { address: '10.128.1.77' })).status).toBe(200);
    expect(await a('alias')).toEqual(['10.128.1.77']);
    // The tenant's own PTR for the address is not taken over.
    expect(await ptr('10.128.1.77')).toEqual([`mine.${zone()}.`]);
    expect((await del('alias')).status).toBe(204);
    expect((await put('tmp', { address: '10.128.1.90' })).status).toBe(200);
    expect((await del('tmp')).status).toBe(204);
    const rec = await answered(clientFor(site).POST('/v1/tenants/{t}/reconcile', { params: { path: { t: 'acme' } } }));
    expect(rec.status, rec.text).toBe(200);
    expect(await a('mine')).toEqual(['10.128.1.77']);
    expect(await ptr('10.128.1.77')).toEqual([`mine.${zone()}.`]);
  });
});

describe('reconcile', () => {
  it('restores the names and PTRs of workloads and records when the zones were lost', async () => {
    for (const z of [acme.dns.zone, acme.dns.reverse_zone]) {
      await fetch(`${site.backends.pdns.apiUrl}/servers/localhost/zones/${z}.`, { method: 'DELETE', headers: { 'X-API-Key': site.backends.pdns.apiKey } });
    }
    expect((await dig(port(), `www.${zone()}`)).answers).toEqual([]);
    const r = await answered(clientFor(site).POST('/v1/tenants/{t}/reconcile', { params: { path: { t: 'acme' } } }));
    expect(r.status, r.text).toBe(200);
    expect(await a('www')).toEqual(['10.128.1.21']);
    expect(await a('web')).toEqual(['10.128.1.10']);
    expect(await a('camera')).toEqual([DEVICE_ADDRESS]);
    expect(await ptr('10.128.1.21')).toEqual(['www.acme.lab.example.']);
    expect(await ptr('10.128.1.10')).toEqual(['web.acme.lab.example.']);
  });
});

describe('reconcile, everything in place', () => {
  it('reads the forward zone as often with 3 more names: once for all its names, not once per name', async () => {
    const forwardReads = async () => {
      const before = site.backends.pdns.faults.seen(`/zones/${zone()}.`);
      const r = await answered(clientFor(site).POST('/v1/tenants/{t}/reconcile', { params: { path: { t: 'acme' } } }));
      expect(r.status, r.text).toBe(200);
      const names = r.body.objects.filter((o: { area: string; object: string }) => o.area === 'dns' && / A$/.test(o.object));
      expect(names.every((o: { result: string }) => o.result === 'in-place')).toBe(true);
      return { reads: site.backends.pdns.faults.seen(`/zones/${zone()}.`) - before, names: names.length };
    };
    const first = await forwardReads();
    for (const n of [1, 2, 3]) expect((await put(`more${n}`, { address: `10.128.1.${100 + n}` })).status).toBe(200);
    const then = await forwardReads();
    expect(then.names).toBe(first.names + 3);
    expect(then.reads).toBe(first.reads);
    for (const n of [1, 2, 3]) expect((await del(`more${n}`)).status).toBe(204);
  });
});

describe('backend failures', () => {
  it('a DNS failure on PUT is 502; the same call resumes', async () => {
    site.backends.pdns.faults.add({ failNext: 3, status: 500, method: 'PATCH' });
    const r = await put('late', { address: '10.128.1.50' });
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "dns" failed', failure: { step: 'dns' } });
    const again = await put('late', { address: '10.128.1.50' });
    expect(again.status, again.text).toBe(200);
    expect(await a('late')).toEqual(['10.128.1.50']);
    expect(await ptr('10.128.1.50')).toEqual(['late.acme.lab.example.']);
  });

  it('a DNS failure on DELETE is 502 and keeps the record; a repeat removes it', async () => {
    site.backends.pdns.faults.add({ failNext: 3, status: 500, method: 'PATCH' });
    const r = await del('late');
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "dns" failed', failure: { step: 'dns' } });
    expect((await list()).body.records.map((x: any) => x.name)).toContain('late');
    const again = await del('late');
    expect(again.status, again.text).toBe(204);
    expect((await dig(port(), `late.${zone()}`)).status).toBe('NXDOMAIN');
    expect(await ptr('10.128.1.50')).toEqual([]);
  });
});

describe('the audit log', () => {
  it('holds every change to a published name with the caller', async () => {
    expect((await put('audited', { address: '10.128.1.60' }, acme.api_token)).status).toBe(200);
    expect((await del('audited')).status).toBe(204);
    const rows = await site.registry.sql<{ actor: string; action: string; object: string; detail: any }[]>`
      select actor, action, object, detail from audit_log where tenant = 'acme' and object = 'record audited' order by id`;
    expect(rows).toEqual([
      { actor: 'tenant:acme', action: 'record.put', object: 'record audited', detail: { address: '10.128.1.60', kind: 'subnet' } },
      { actor: 'operator', action: 'record.delete', object: 'record audited', detail: { address: '10.128.1.60', kind: 'subnet' } },
    ]);
    const moved = await site.registry.sql<{ actor: string; detail: any }[]>`
      select actor, detail from audit_log where object = 'record www' and action = 'record.put' order by id`;
    expect(moved).toEqual([
      { actor: 'tenant:acme', detail: { address: '10.128.1.20', kind: 'subnet' } },
      { actor: 'tenant:acme', detail: { address: '10.128.1.21', kind: 'subnet', previous_address: '10.128.1.20' } },
    ]);
  });
});
