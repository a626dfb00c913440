import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { templateConfig } from '../../apps/lab/simulators/proxmox/state.js';
import { dig, nsupdate } from '../support/pdns.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectEachAnswers, readAndDeleteRoutes, TENANT_NOT_FOUND, type RouteCall } from '../support/lab-calls.js';
import { OUTCOME } from '../../core/search-attributes.js';
import { expectUnauthorized } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

/**
 * Workloads through the HTTP API (spec: Workload, Workloads), on the lab site: the Proxmox
 * simulator for the VMs, the real PowerDNS for the names (checked with dig).
 */
let site: TestSite;
let acme: any;
let other: any;
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ2n4mYkqCgs7bKp0p3TnDLgH5x1ZyB3aWq0f2G8s9vX dev@laptop';
const KEY2 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHc7m5Yq0u7aJm1tq8VbJ3oPqXcD4f2Lr9sE6wK1nT0Z other@laptop';

beforeAll(async () => {
  site = await startTestSite({ minimal: true });
  const a = await site.call('POST', '/v1/tenants', { body: { name: 'acme' } });
  expect(a.status, a.text).toBe(201);
  acme = a.body;
  const o = await site.call('POST', '/v1/tenants', { body: { name: 'other' } });
  expect(o.status, o.text).toBe(201);
  other = o.body;
});
afterAll(async () => {
  await site?.stop();
});
afterEach(() => {
  site.backends.proxmox.faults.clear();
  site.backends.pdns.faults.clear();
});

const dnsPort = () => site.backends.pdns.dnsPort;
const reverseName = (address: string) => `${address.split('.').reverse().join('.')}.in-addr.arpa`;
const vm = (vmid: number) => site.backends.proxmox.state.vms.get(vmid);
const create = (tenant: string, body: unknown, token?: string) => site.call('POST', `/v1/tenants/${tenant}/workloads`, { body, token });

describe('creating a workload', () => {
  let web: any;
  beforeAll(async () => {
    const r = await create('acme', { name: 'web', ssh_keys: [KEY] }, acme.api_token);
    expect(r.status, r.text).toBe(201);
    web = r.body;
  });

  it('answers 201 with the derived identity, the defaults and the login user', () => {
    expect(web).toEqual({
      tenant: 'acme',
      name: 'web',
      fqdn: 'web.acme.lab.example',
      status: 'ready',
      ordinal: 0,
      vmid: 10040,
      cores: 2,
      memory_mb: 2048,
      disk_gb: 8,
      mac: '02:00:00:00:27:38',
      address: '10.128.1.10',
      login_user: 'tenant',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("builds the VM: a clone of the template on the tenant's VNet with its MAC, address, user and keys, running", () => {
    const v = vm(10040)!;
    expect(v.status).toBe('running');
    expect(v.config.name).toBe('acme-web');
    expect(v.config.cores).toBe('2');
    expect(v.config.memory).toBe('2048');
    expect(v.config.net0).toBe('virtio=02:00:00:00:27:38,bridge=tv01');
    expect(v.config.ipconfig0).toBe('ip=10.128.1.10/24,gw=10.128.1.1');
    expect(v.config.ciuser).toBe('tenant');
    expect(decodeURIComponent(v.config.sshkeys ?? '')).toBe(KEY);
  });

  it('publishes <name>.<zone> and its PTR (dig against PowerDNS)', async () => {
    expect((await dig(dnsPort(), 'web.acme.lab.example')).answers).toEqual(['10.128.1.10']);
    expect((await dig(dnsPort(), reverseName('10.128.1.10'), 'PTR')).answers).toEqual(['web.acme.lab.example.']);
  });

  it('reads it back (GET one, GET list by ordinal) as the operator and as the tenant', async () => {
    const one = await site.call('GET', '/v1/tenants/acme/workloads/web', { token: acme.api_token });
    expect(one.status).toBe(200);
    // A read adds, beside `status`, the condition of the workload's newest run: its create, done.
    const read = {
      ...web,
      condition: { ready: true, run: expect.objectContaining({ id: 'workload-create/acme/web', state: 'done' }), since: expect.any(String) },
    };
    expect(one.body).toEqual(read);
    const list = await site.call('GET', '/v1/tenants/acme/workloads');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ workloads: [read] });
  });

  it('repeating it re-applies the sizing and keeps the identity', async () => {
    const r = await create('acme', { name: 'web', cores: 4, memory_mb: 4096, disk_gb: 20, ssh_keys: [KEY] });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ ordinal: 0, vmid: 10040, mac: web.mac, address: web.address, cores: 4, memory_mb: 4096, disk_gb: 20, status: 'ready' });
    expect(r.body.created_at).toBe(web.created_at);
    const v = vm(10040)!;
    expect(v.config.cores).toBe('4');
    expect(v.config.memory).toBe('4096');
    expect(v.config.scsi0).toMatch(/size=20G/);
    // Sizing omitted: the defaults are taken again; the disk keeps its size.
    const again = await create('acme', { name: 'web' });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ cores: 2, memory_mb: 2048, disk_gb: 20, vmid: 10040 });
  });

  it("a disk smaller than the workload's is refused (400): a disk never shrinks", async () => {
    const r = await create('acme', { name: 'web', disk_gb: 10 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "disk_gb 10 is smaller than the workload's disk of 20 GB; a disk can grow, never shrink" });
  });

  it('other SSH keys on a repeat are refused (400): they are written at first boot', async () => {
    const r = await create('acme', { name: 'web', ssh_keys: [KEY2] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'ssh_keys are written at first boot only; to change them delete the workload and create it again' });
  });

  it("a disk smaller than the template's is refused with 400 naming the template's size; nothing is registered", async () => {
    const r = await create('acme', { name: 'tiny', disk_gb: 4 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "disk_gb 4 is smaller than the template's disk of 8 GB; a disk can grow, never shrink" });
    expectStatus(await site.call('GET', '/v1/tenants/acme/workloads/tiny'), 404, site.logs);
  });

  it('records the run under workload-create/<tenant>/<name> with the tenant search attribute', async () => {
    const client = site.client;
    const desc = await client.workflow.getHandle('workload-create/acme/web').describe();
    expect(desc.type).toBe('workloadCreate');
    expect(desc.searchAttributes.TenantName).toEqual(['acme']);
  });
});

describe('requests that are refused', () => {
  const rows: { reason: string; body: unknown; error: string | RegExp }[] = [
    { reason: 'an unknown field', body: { name: 'x', colour: 'red' }, error: 'unknown field "colour"' },
    { reason: 'no name', body: {}, error: 'name: required' },
    { reason: 'an upper-case name', body: { name: 'Web' }, error: /^name: must be a DNS label/ },
    { reason: 'a name starting with a dash', body: { name: '-web' }, error: /^name: must be a DNS label/ },
    { reason: 'a name of 21 characters', body: { name: 'a'.repeat(21) }, error: /^name: must be a DNS label/ },
    { reason: 'a name with a dot', body: { name: 'a.b' }, error: /^name: must be a DNS label/ },
    { reason: 'zero cores', body: { name: 'x', cores: 0 }, error: /^cores: / },
    { reason: 'fractional memory', body: { name: 'x', memory_mb: 1.5 }, error: /^memory_mb: / },
    { reason: 'a disk of 0 GB', body: { name: 'x', disk_gb: 0 }, error: /^disk_gb: / },
    {
      reason: 'a key that is not an OpenSSH public key',
      body: { name: 'x', ssh_keys: ['hello'] },
      error: 'ssh_keys.0: must be an OpenSSH public key on one line: <type> <base64 key data> [comment]',
    },
    // PVE checks each key with ssh-keygen and refuses the whole config write: keys are written at
    // first boot only, so such a key would fail the hypervisor step on every repeat.
    {
      reason: 'a key whose data is no key',
      body: { name: 'x', ssh_keys: [KEY, 'ssh-ed25519 AAAA dev@laptop'] },
      error: 'ssh_keys.1: key data ends inside the ssh-ed25519 key',
    },
    {
      reason: "a key whose data is another type's",
      body: { name: 'x', ssh_keys: [`ssh-rsa ${KEY.split(' ')[1]}`] },
      error: 'ssh_keys.0: key data is a key of type "ssh-ed25519", not ssh-rsa',
    },
  ];
  for (const row of rows) {
    it(`400: ${row.reason}`, async () => {
      const r = await create('acme', row.body);
      expect(r.status, r.text).toBe(400);
      if (typeof row.error === 'string') expect(r.body).toEqual({ error: row.error });
      else expect(r.body.error).toMatch(row.error);
    });
  }

  /** Each workload route of tenant `t`, with workload web. */
  const everyRoute = (t: string): RouteCall[] => [
    ['POST', `/v1/tenants/${t}/workloads`, { name: 'x' }],
    ...readAndDeleteRoutes(`/v1/tenants/${t}/workloads`, 'web'),
  ];

  it('401 without a token or with an unknown one', async () => {
    expectUnauthorized(await create('acme', { name: 'x' }, null as unknown as string));
    expectUnauthorized(await site.call('GET', '/v1/tenants/acme/workloads', { token: 'nope' }));
  });

  it("404 for another tenant's token, for every route, and the workloads are untouched", async () => {
    await expectEachAnswers(site, everyRoute('acme'), TENANT_NOT_FOUND, other.api_token);
    expectStatus(await site.call('GET', '/v1/tenants/acme/workloads/web'), 200, site.logs);
  });

  it('404 for an unknown tenant and for an unknown workload', async () => {
    await expectEachAnswers(site, everyRoute('nobody'), TENANT_NOT_FOUND);
    for (const method of ['GET', 'DELETE']) {
      const r = await site.call(method, '/v1/tenants/acme/workloads/ghost');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'workload not found' });
    }
  });

  it('a name the tenant published itself with its update key is refused (400) and left alone', async () => {
    const key = `hmac-sha256:${acme.dns.tsig_key_name}:${acme.dns.tsig_secret}`;
    const u = await nsupdate(dnsPort(), acme.dns.zone, key, [`update add mine.${acme.dns.zone}. 300 A 10.128.1.200`]);
    expect(u.ok, u.output).toBe(true);
    const r = await create('acme', { name: 'mine' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: '"mine" is already published in the tenant zone by the tenant itself; remove it or choose another name' });
    expect((await dig(dnsPort(), `mine.${acme.dns.zone}`)).answers).toEqual(['10.128.1.200']);
  });
});

describe('ordinals', () => {
  it('two concurrent creates of different names never share an ordinal; two of one name converge', async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const rs = await Promise.all([...names.map((name) => create('acme', { name })), create('acme', { name: 'c1' })]);
    for (const r of rs) expect(r.status, r.text).toBe(201);
    const ordinals = rs.slice(0, names.length).map((r) => r.body.ordinal);
    expect(new Set(ordinals).size).toBe(names.length);
    expect([...ordinals].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    const [first, , , , , twin] = rs;
    expect(twin!.body).toMatchObject({ ordinal: first!.body.ordinal, vmid: first!.body.vmid, mac: first!.body.mac, address: first!.body.address });
    for (const r of rs) {
      expect(r.body.vmid).toBe(10040 + r.body.ordinal);
      expect(r.body.address).toBe(`10.128.1.${10 + r.body.ordinal}`);
      expect(vm(r.body.vmid)?.status).toBe('running');
    }
    const list = await site.call('GET', '/v1/tenants/acme/workloads');
    expect(list.body.workloads.map((w: any) => w.ordinal)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('an ordinal is reused after a delete (the lowest free one)', async () => {
    const c2 = (await site.call('GET', '/v1/tenants/acme/workloads/c2')).body;
    const d = await site.call('DELETE', '/v1/tenants/acme/workloads/c2', { token: acme.api_token });
    expect(d.status, d.text).toBe(204);
    const r = await create('acme', { name: 'reuse' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ ordinal: c2.ordinal, vmid: c2.vmid, mac: c2.mac, address: c2.address });
    expect((await dig(dnsPort(), `reuse.${acme.dns.zone}`)).answers).toEqual([c2.address]);
    expect((await dig(dnsPort(), `c2.${acme.dns.zone}`)).status).toBe('NXDOMAIN');
    expect((await dig(dnsPort(), reverseName(c2.address), 'PTR')).answers).toEqual([`reuse.${acme.dns.zone}.`]);
  });

  it('409 when the tenant has no free ordinal (40 per tenant)', async () => {
    const t = await site.call('POST', '/v1/tenants', { body: { name: 'full' } });
    expect(t.status, t.text).toBe(201);
    const names = Array.from({ length: 40 }, (_, i) => `w${i}`);
    for (let i = 0; i < names.length; i += 20) {
      const rs = await Promise.all(names.slice(i, i + 20).map((name) => create('full', { name })));
      for (const r of rs) expect(r.status, r.text).toBe(201);
    }
    const r = await create('full', { name: 'one-more' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: 'no free workload ordinal: the tenant has 40 workloads; delete one first' });
    const list = await site.call('GET', '/v1/tenants/full/workloads');
    expect(list.body.workloads.map((w: any) => w.ordinal)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(list.body.workloads.at(-1)).toMatchObject({ vmid: 10000 + 40 * t.body.index + 39, address: `10.128.${t.body.index}.49` });
  });
});

describe('backend failures', () => {
  it('a hypervisor failure is 502 with the partial workload; the same call resumes with the same identity', async () => {
    site.backends.proxmox.faults.add({ failNext: 3, status: 500, match: '/clone', method: 'POST' });
    const r = await create('acme', { name: 'flaky' });
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "hypervisor" failed');
    expect(r.body.workload).toMatchObject({ name: 'flaky', status: 'provisioning', fqdn: `flaky.${acme.dns.zone}` });
    expect(r.text).not.toMatch(/127\.0\.0\.1|localhost:\d/);
    const again = await create('acme', { name: 'flaky' });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ status: 'ready', ordinal: r.body.workload.ordinal, vmid: r.body.workload.vmid, mac: r.body.workload.mac });
    expect(vm(again.body.vmid)?.status).toBe('running');
  });

  it('a DNS failure is 502 with the partial workload; the same call resumes and publishes the names', async () => {
    site.backends.pdns.faults.add({ failNext: 3, status: 500, method: 'PATCH' });
    const r = await create('acme', { name: 'dnsfail' });
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "dns" failed', workload: { name: 'dnsfail', status: 'provisioning' } });
    expect(vm(r.body.workload.vmid)?.status).toBe('running');
    expect((await dig(dnsPort(), `dnsfail.${acme.dns.zone}`)).status).toBe('NXDOMAIN');
    const again = await create('acme', { name: 'dnsfail' });
    expect(again.status, again.text).toBe(201);
    expect((await dig(dnsPort(), `dnsfail.${acme.dns.zone}`)).answers).toEqual([again.body.address]);
  });

  it('a workload deleted while its failed create is parked ends that run now (Outcome superseded), not at the parked timeout', async () => {
    site.backends.pdns.faults.add({ failNext: 3, status: 500, method: 'PATCH' });
    const r = await create('acme', { name: 'dropped' });
    expect(r.status, r.text).toBe(502);
    const run = site.client.workflow.getHandle('workload-create/acme/dropped');
    expect((await run.describe()).status.name).toBe('RUNNING');
    expectStatus(await site.call('DELETE', '/v1/tenants/acme/workloads/dropped'), 204, site.logs);
    await run.result();
    const d = await run.describe();
    expect([d.status.name, d.typedSearchAttributes.get(OUTCOME)]).toEqual(['COMPLETED', 'superseded']);
  });

  it('a template lookup failing before the workload is registered is 502 without a workload', async () => {
    site.backends.proxmox.faults.add({ failNext: 3, status: 500, match: '/qemu', method: 'GET' });
    const r = await create('acme', { name: 'early' });
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "hypervisor" failed', failure: { step: 'hypervisor' } });
    expectStatus(await site.call('GET', '/v1/tenants/acme/workloads/early'), 404, site.logs);
  });

  it('a failed delete is 502 and leaves the workload deleting; a repeat resumes and removes the VM and its names', async () => {
    const w = (await site.call('GET', '/v1/tenants/acme/workloads/flaky')).body;
    site.backends.proxmox.faults.add({ failNext: 3, status: 500, match: `/qemu/${w.vmid}`, method: 'DELETE' });
    const r = await site.call('DELETE', '/v1/tenants/acme/workloads/flaky');
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "hypervisor" failed', failure: { step: 'hypervisor' } });
    expect((await site.call('GET', '/v1/tenants/acme/workloads/flaky')).body.status).toBe('deleting');
    const blocked = await create('acme', { name: 'flaky' });
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ error: 'the workload is being deleted; repeat the delete first' });
    const again = await site.call('DELETE', '/v1/tenants/acme/workloads/flaky');
    expect(again.status, again.text).toBe(204);
    expect(vm(w.vmid)).toBeUndefined();
    expect((await dig(dnsPort(), `flaky.${acme.dns.zone}`)).status).toBe('NXDOMAIN');
    expect((await dig(dnsPort(), reverseName(w.address), 'PTR')).answers).toEqual([]);
    expectStatus(await site.call('GET', '/v1/tenants/acme/workloads/flaky'), 404, site.logs);
  });

  it('a DNS failure on delete is 502; a repeat removes the names', async () => {
    site.backends.pdns.faults.add({ failNext: 3, status: 500, method: 'PATCH' });
    const r = await site.call('DELETE', '/v1/tenants/acme/workloads/dnsfail');
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "dns" failed', failure: { step: 'dns' } });
    const again = await site.call('DELETE', '/v1/tenants/acme/workloads/dnsfail');
    expect(again.status, again.text).toBe(204);
    expect((await dig(dnsPort(), `dnsfail.${acme.dns.zone}`)).status).toBe('NXDOMAIN');
  });
});

describe('the site template', () => {
  it("a new workload is cloned from the newest template by name prefix; the disk follows that template's size", async () => {
    const storage = site.backends.proxmox.state.storage;
    for (const t of [
      { vmid: 9001, name: 'tmpl-debian-13', diskGb: 10 },
      { vmid: 9002, name: 'tmpl-debian-9', diskGb: 3 },
      { vmid: 9003, name: 'zz-other-99', diskGb: 50 },
    ]) {
      site.backends.proxmox.state.vms.set(t.vmid, { vmid: t.vmid, config: templateConfig(t, storage), status: 'stopped' });
    }
    // The cluster's list names a new template once pvestatd's next round has run.
    site.backends.proxmox.pvestatd();
    const small = await create('other', { name: 'app', disk_gb: 9 });
    expect(small.status).toBe(400);
    expect(small.body).toEqual({ error: "disk_gb 9 is smaller than the template's disk of 10 GB; a disk can grow, never shrink" });
    const r = await create('other', { name: 'app' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.disk_gb).toBe(10);
    expect(vm(r.body.vmid)?.config.scsi0).toMatch(/size=10G/);
  });
});

describe('tenant delete and audit', () => {
  it('a tenant with workloads is not deleted (409); without them it is', async () => {
    const r = await site.call('DELETE', '/v1/tenants/other', { token: other.api_token });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: 'the tenant still has workloads; delete them first' });
    expect((await site.call('GET', '/v1/tenants/other')).body.status).toBe('ready');
    expectStatus(await site.call('DELETE', '/v1/tenants/other/workloads/app', { token: other.api_token }), 204, site.logs);
    site.backends.proxmox.removeTenantNetwork('other');
    const gone = await site.call('DELETE', '/v1/tenants/other', { token: other.api_token });
    expect(gone.status, gone.text).toBe(204);
  });

  it('creates and deletes are in the audit log with the caller', async () => {
    const rows = await site.registry.sql<{ actor: string; action: string; object: string }[]>`
      select actor, action, object from audit_log where tenant = 'acme' and action like 'workload.%' order by id`;
    expect(rows).toEqual(
      expect.arrayContaining([
        { actor: 'tenant:acme', action: 'workload.create', object: 'workload web' },
        { actor: 'operator', action: 'workload.resize', object: 'workload web' },
        { actor: 'tenant:acme', action: 'workload.delete', object: 'workload c2' },
      ]),
    );
  });
});
