import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitSdn, removeTenantNetwork } from '../../apps/lab/simulators/proxmox/index.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectNoSecrets } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

/**
 * Tenant reads and registry semantics through the HTTP API: the tenant object and its derived
 * identifiers (design §7), secrets_stored, repeated creates, index allocation against the
 * registry and the fabric, and the egress list of ready tenants.
 */
let site: TestSite;
const created: Record<string, any> = {};

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

async function create(name: string, body: Record<string, unknown> = {}) {
  const r = await site.call('POST', '/v1/tenants', { body: { name, ...body } });
  if (r.status === 201 || r.status === 200) created[name] = r.body;
  return r;
}

/** Puts SDN objects on the fabric as an operator would (edited and applied). */
function fabric(zones: Record<string, number>, vnets: Record<string, { zone: string; tag?: number }> = {}) {
  const state = site.backends.proxmox.state;
  for (const [zone, vrfVni] of Object.entries(zones)) {
    state.sdn.config.zones.set(zone, { type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': vrfVni });
  }
  for (const [vnet, v] of Object.entries(vnets)) state.sdn.config.vnets.set(vnet, { type: 'vnet', ...v });
  commitSdn(state);
}

/** The tenant object a read must return for `name` at index `i` (spec: Tenant; design §7). */
function expectTenant(t: any, name: string, i: number) {
  const s = site.config.site!;
  expect(Object.keys(t).sort()).toEqual([
    'condition',
    'created_at',
    'dashboard',
    'dns',
    'fabric',
    'index',
    'log',
    'name',
    'network',
    'secrets_stored',
    'state',
    'status',
    'steps',
    'updated_at',
  ]);
  expect(t.name).toBe(name);
  expect(t.index).toBe(i);
  expect(t.status).toBe('ready');
  expect(t.created_at).toMatch(DATE_TIME);
  expect(t.updated_at).toMatch(DATE_TIME);
  expect(Date.parse(t.updated_at)).toBeGreaterThanOrEqual(Date.parse(t.created_at));
  expect(t.network).toEqual({ vrf_vni: 10000 + i, vnet_vni_base: 100000 + 16 * i, subnet: `10.128.${i}.0/24`, gateway: `10.128.${i}.1` });
  expect(t.fabric).toEqual({ controller_id: 'evpnctl', node: 'pve1' });
  expect(t.dns).toEqual({
    zone: `${name}.lab.example`,
    reverse_zone: `${i}.128.10.in-addr.arpa`,
    update_server: s.dns.updateServer,
    tsig_key_name: `tenant-${name}`,
    tsig_algorithm: 'hmac-sha256',
  });
  expect(t.state).toEqual({ endpoint: s.state.endpoint, bucket: 'tenant-state', key_prefix: `${name}/`, access_key: name });
  // Log store and dashboards are optional backends: their fields follow what the site has.
  expect(t.log).toEqual(s.logStore ? { account_id: 1000 + i, endpoint: s.logStore.endpoint, select_header: expect.any(String) } : { account_id: 1000 + i });
  expect(t.dashboard).toEqual(s.grafana ? { url: expect.any(String), org_id: expect.any(Number), username: expect.any(String) } : {});
  expect(t.secrets_stored).toBe(true);
  // Beside `status`, the condition of its newest run: a create, done (or none recorded, for a row written by hand).
  expect(t.condition.ready).toBe(true);
  if (t.condition.run) expect(t.condition.run).toMatchObject({ state: 'done' });
  expect(t.steps.map((x: any) => x.name)).toEqual([
    'dns',
    'resolver',
    'state',
    'network',
    ...(s.logStore ? ['log-store'] : []),
    ...(s.grafana ? ['dashboards'] : []),
  ]);
  for (const step of t.steps) {
    expect(Object.keys(step).sort()).toEqual(['name', 'ok', 'updated_at']);
    expect(step.ok).toBe(true);
    expect(step.updated_at).toMatch(DATE_TIME);
  }
  expectNoSecrets(t);
}

beforeAll(async () => {
  site = await startTestSite();
  for (const name of ['rga', 'rgb', 'rgc']) {
    const r = await create(name);
    expect(r.status, r.text).toBe(201);
  }
});
afterAll(async () => {
  await site?.stop();
});

describe('a tenant read', () => {
  it('carries every field of the spec, derived as design §7 says', async () => {
    expect([created.rga.index, created.rgb.index, created.rgc.index]).toEqual([1, 2, 3]);
    const r = await site.call('GET', '/v1/tenants/rgc');
    expect(r.status, r.text).toBe(200);
    expectTenant(r.body, 'rgc', 3);
  });

  it('names backend objects that exist', async () => {
    const { apiUrl, apiKey } = site.backends.pdns;
    for (const zone of ['rgc.lab.example.', '3.128.10.in-addr.arpa.']) {
      const res = await fetch(`${apiUrl}/servers/localhost/zones/${zone}`, { headers: { 'X-API-Key': apiKey } });
      expect(res.status, zone).toBe(200);
    }
    const sdn = site.backends.proxmox.state.sdn.running!;
    expect(sdn.zones.get('rgc')).toMatchObject({ type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 10003 });
    expect(sdn.vnets.get('tv03')).toMatchObject({ zone: 'rgc', tag: 100048 });
    expect(site.backends.minio.state.users.get('rgc')?.secretKey).toBe(created.rgc.state.secret_key);
  });
});

describe('a ready tenant created again', () => {
  it('is refused without secrets', async () => {
    const r = await create('rga');
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toEqual(expect.any(String));
    expectNoSecrets(r.body);
  });

  it('reports secrets_stored false when its stored secret is unreadable, and is repaired by a create with its secrets', async () => {
    const t = created.rga;
    await site.registry.sql`update tenants set tsig_secret = 'k9:AAAA' where name = 'rga'`;
    const read = await site.call('GET', '/v1/tenants/rga');
    expect(read.status).toBe(200);
    expect(read.body.secrets_stored).toBe(false);
    const listed = (await site.call('GET', '/v1/tenants')).body.tenants.find((x: any) => x.name === 'rga');
    expect(listed.secrets_stored).toBe(false);
    expect((await create('rga')).status).toBe(409);

    // Supplied secrets replace the stored ones: a new state secret reaches the state store.
    const newStateSecret = 'Restored-state-secret-0123456789';
    const r = await create('rga', { tsig_secret: t.dns.tsig_secret, state_secret: newStateSecret, api_token: t.api_token });
    expect(r.status, r.text).toBe(200);
    expect(r.body.outcome).toBe('reconciled');
    expect(r.body.index).toBe(1);
    expect(r.body.secrets_stored).toBe(true);
    expect(r.body.dns.tsig_secret).toBe(t.dns.tsig_secret);
    expect(r.body.state.secret_key).toBe(newStateSecret);
    expect(site.backends.minio.state.users.get('rga')?.secretKey).toBe(newStateSecret);

    const after = await site.call('GET', '/v1/tenants/rga', { token: t.api_token });
    expect(after.status, after.text).toBe(200);
    expect(after.body.secrets_stored).toBe(true);
    expectNoSecrets(after.body);
  });
});

describe('restore field bounds (spec: state_secret 8..40 characters, tsig_secret base64 of at least 16 bytes)', () => {
  const b64 = (n: number) => Buffer.alloc(n, 7).toString('base64');
  it.each([
    { field: 'state_secret', tsig: b64(32), state: 'x'.repeat(7) },
    { field: 'state_secret', tsig: b64(32), state: 'x'.repeat(41) },
    { field: 'tsig_secret', tsig: b64(15), state: 'x'.repeat(20) },
    { field: 'tsig_secret', tsig: 'not base64!', state: 'x'.repeat(20) },
    // What the state store cannot hold as sent: the surrogate reached it as U+FFFD, and the answer
    // handed the tenant back a secret it never sent.
    { field: 'state_secret', tsig: b64(32), state: 'secret-\ud800-half', why: 'contains an unpaired UTF-16 surrogate' },
    { field: 'state_secret', tsig: b64(32), state: 'secret-\u0000-nul', why: 'contains a control character' },
    { field: 'state_secret', tsig: b64(32), state: 'two\nlines-of-it', why: 'contains a control character' },
  ])('$field out of bounds ($tsig / $state.length chars): 400 naming it, nothing changed', async ({ field, tsig, state, why }) => {
    const t = created.rga;
    const held = site.backends.minio.state.users.get('rga')?.secretKey;
    const r = await create('rga', { tsig_secret: tsig, state_secret: state, api_token: t.api_token });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(new RegExp(`^${field}: `));
    if (why) expect(r.body.error).toBe(`${field}: ${why}`);
    expectNoSecrets(r.body);
    expectStatus(await site.call('GET', '/v1/tenants/rga', { token: t.api_token }), 200, site.logs);
    expect(site.backends.minio.state.users.get('rga')?.secretKey).toBe(held);
  });
  it.each([
    { tsig: b64(16), state: 'x'.repeat(8) },
    { tsig: b64(16), state: 'y'.repeat(40) },
    { tsig: b64(16), state: 'pässwörd-ünïcödé' },
  ])('the bounds themselves are accepted ($state.length characters, 16 bytes)', async ({ tsig, state }) => {
    const t = created.rgb;
    const r = await create('rgb', { tsig_secret: tsig, state_secret: state, api_token: t.api_token });
    expect(r.status, r.text).toBe(200);
    expect(r.body.state.secret_key).toBe(state);
    expect(site.backends.minio.state.users.get('rgb')?.secretKey).toBe(state);
    expect(r.body.dns.tsig_secret).toBe(tsig);
  });
});

describe('an operator reconcile', () => {
  it('answers the tenant with outcome reconciled and none of its create-only secrets', async () => {
    const r = await site.call('POST', '/v1/tenants/rgc/reconcile');
    expect(r.status, r.text).toBe(200);
    expect(r.body.outcome).toBe('reconciled');
    expect(r.body.index).toBe(3);
    expect(r.body.status).toBe('ready');
    expect(r.body.dns).not.toHaveProperty('tsig_secret');
    expect(r.body.state).not.toHaveProperty('secret_key');
    expect(r.body).not.toHaveProperty('api_token');
    // The reconcile answer is not a read: the outcome stays off later reads.
    expect((await site.call('GET', '/v1/tenants/rgc')).body).not.toHaveProperty('outcome');
  });
});

describe('index allocation', () => {
  it('gives a new name the lowest free index, reusing a deleted tenant’s', async () => {
    removeTenantNetwork(site.backends.proxmox.state, 'rgb');
    const del = await site.call('DELETE', '/v1/tenants/rgb');
    expect(del.status, del.text).toBe(204);
    const r = await create('rgd');
    expect(r.status, r.text).toBe(201);
    expect(r.body.outcome).toBe('created');
    expect(r.body.index).toBe(2);
  });

  // A restore keeps its requested index (test/reliability/registry-loss.test.ts); an index without
  // the secrets would make a brand-new tenant labelled restored (issue 16 item 9).
  it('refuses a requested index without the secrets: index is for restore only', async () => {
    const r = await create('rge', { index: 40 });
    expect([r.status, r.body]).toEqual([400, { error: 'index: is for restore only: send it with tsig_secret, state_secret and api_token' }]);
    expectStatus(await site.call('GET', '/v1/tenants/rge'), 404, site.logs);
  });

  it('skips indexes the fabric carries for zones and VNets of other names', async () => {
    // Lowest free in the registry is 4; the fabric carries 4 (zone), 5 (VNet id), 6 (VNet tag).
    fabric({ ghost: 10004 }, { tv05: { zone: 'ghost' }, gnet: { zone: 'ghost', tag: 100000 + 16 * 6 + 3 } });
    const r = await create('rgf');
    expect(r.status, r.text).toBe(201);
    expect(r.body.index).toBe(7);
    // The other name's objects are left alone.
    expect(site.backends.proxmox.state.sdn.running!.zones.get('ghost')).toMatchObject({ 'vrf-vxlan': 10004 });
  });

  it('gives a name the index its existing fabric zone carries', async () => {
    fabric({ rgh: 10030 });
    const r = await create('rgh');
    expect(r.status, r.text).toBe(201);
    expect(r.body.outcome).toBe('created');
    expect(r.body.index).toBe(30);
    const sdn = site.backends.proxmox.state.sdn.running!;
    expect(sdn.zones.get('rgh')).toMatchObject({ 'vrf-vxlan': 10030 });
    expect(sdn.vnets.get('tv30')).toMatchObject({ zone: 'rgh', tag: 100000 + 16 * 30 });
  });

  it('answers 409 when no index is free, and never allocates 63', async () => {
    const held = new Set((await site.registry.sql`select index from tenants`).map((r) => Number(r.index)));
    const free = Array.from({ length: 62 }, (_, k) => k + 1).filter((i) => !held.has(i));
    const rows = free.map((i) => ({ name: `dm${i}`, index: i, status: 'ready', tsig_secret: 'k1:x', state_secret: 'k1:x' }));
    await site.registry.sql`insert into tenants ${site.registry.sql(rows)}`;
    try {
      const r = await create('rgz');
      expect(r.status, r.text).toBe(409);
      expect(r.body).toEqual({ error: 'no free tenant index' });
      expect((await site.registry.sql`select 1 from tenants where name = 'rgz' or index = 63`).length).toBe(0);
      expectStatus(await site.call('GET', '/v1/tenants/rgz'), 404, site.logs);
    } finally {
      await site.registry.sql`delete from tenants where name like 'dm%'`;
    }
  });
});

describe('GET /v1/tenants', () => {
  it('lists every tenant ordered by index, each a full tenant without outcome or secrets', async () => {
    const r = await site.call('GET', '/v1/tenants');
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body)).toEqual(['tenants']);
    const expected: [string, number][] = [
      ['rga', 1],
      ['rgd', 2],
      ['rgc', 3],
      ['rgf', 7],
      ['rgh', 30],
    ];
    expect(r.body.tenants.map((t: any) => [t.name, t.index])).toEqual(expected);
    r.body.tenants.forEach((t: any, k: number) => expectTenant(t, ...expected[k]!));
  });
});

describe('GET /v1/fabric/egress', () => {
  it('lists every ready tenant and no other', async () => {
    await site.registry.sql`update tenants set status = 'provisioning' where name = 'rgd'`;
    await site.registry.sql`update tenants set status = 'deleting' where name = 'rgf'`;
    try {
      for (const token of [site.operatorToken, site.egressToken]) {
        const r = await site.call('GET', '/v1/fabric/egress', { token });
        expect(r.status, r.text).toBe(200);
        expect(r.body).toEqual({
          vrfs: ['rga', 'rgc', 'rgh'].map((tenant) => ({ tenant, vrf: `vrf_${tenant}` })),
        });
      }
    } finally {
      await site.registry.sql`update tenants set status = 'ready' where name in ('rgd', 'rgf')`;
    }
  });
});

describe('GET /v1/tenants/{t} after changes made behind this API', () => {
  // What a worker or another API replica writes reaches the registry only: every read must show it
  // at once, although the API keeps the views it built (apps/api/tenant-views.ts).
  const read = () => site.call('GET', '/v1/tenants/rgv');
  const steps = (t: any) => Object.fromEntries(t.steps.map((s: any) => [s.name, s.ok]));

  it('shows each change to the tenant or its steps on the next read, and 404 once the row is gone', async () => {
    expect((await create('rgv')).status).toBe(201);
    const first = await read();
    expect(first.status, first.text).toBe(200);
    expect(first.body.status).toBe('ready');
    expect(steps(first.body).dns).toBe(true);
    expect((await read()).body).toEqual(first.body);

    await site.registry.sql`update steps set ok = false, updated_at = now() where tenant = 'rgv' and name = 'dns'`;
    expect(steps((await read()).body).dns).toBe(false);

    await site.registry.sql`insert into steps (tenant, name, ok) values ('rgv', 'device-address', true)`;
    expect((await read()).body.steps.map((s: any) => s.name)).toContain('device-address');

    await site.registry.sql`update tenants set status = 'provisioning' where name = 'rgv'`;
    const after = await read();
    expect(after.body.status).toBe('provisioning');
    expectNoSecrets(after.body);

    // The registry row goes with its steps (cascade) although a trigger on steps touches the tenant.
    await site.registry.sql`delete from tenants where name = 'rgv'`;
    const gone = await read();
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'tenant not found' });
  });

  it('bumps the version in the database on every write to a tenant or its steps, whoever writes', async () => {
    expect((await create('rgw')).status).toBe(201);
    const version = async () => Number((await site.registry.sql`select version from tenants where name = 'rgw'`)[0]!.version);
    const v0 = await version();
    await site.registry.sql`update steps set ok = ok where tenant = 'rgw' and name = 'state'`;
    const v1 = await version();
    expect(v1).toBe(v0 + 1);
    await site.registry.sql`update tenants set dashboard_org_id = dashboard_org_id where name = 'rgw'`;
    expect(await version()).toBe(v1 + 1);
    await site.registry.sql`delete from steps where tenant = 'rgw' and name = 'state'`;
    expect(await version()).toBe(v1 + 2);
  });
});
