import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynsecAdapter, type BrokerAdapter } from '../../backends/mosquitto/dynsec.js';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { deriveIdentity } from '../../core/identity.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * A reconcile covers everything the registry holds for a tenant (issue 26): after its own steps,
 * its workloads' VMs, its Wi-Fi keys and its broker accounts, each area one step activity. Drift is
 * made behind the service's back through the products themselves (the Proxmox and UniFi
 * simulators' state, the real Mosquitto's dynamic-security API) and the reconcile's answer says,
 * per object, what it found: corrected with the fields that differed, created, needs-restore for
 * what only the tenant can restore, unknown for what the registry does not hold (removed only with
 * a saved plan with `prune=true`, applied).
 */
let site: TestSite;
let admin: BrokerAdapter;
let kea: DeviceAddressAdapter;
let probe: { address: string };
let index: number;
let web: { vmid: number; memory_mb: number; cores: number };
let extra: { vmid: number };
let sensorsPsk: string;

const T = 'drift';
const reconcile = (query = '') => site.call('POST', `/v1/tenants/${T}/reconcile${query}`);
const vm = (vmid: number) => site.backends.proxmox.state.vms.get(vmid);
const wlan = () => site.backends.unifi!.wlan('lab-devices')!;
type Found = { area: string; object: string; result: string; fields?: string[]; batch?: unknown };
const find = (objects: Found[], area: string, object: RegExp) => objects.filter((o) => o.area === area && object.test(o.object));

beforeAll(async () => {
  site = await startTestSite();
  const m = site.backends.mosquitto!;
  admin = createDynsecAdapter({ url: m.url, adminUser: m.adminUser, adminPassword: m.adminPassword });
  kea = createKeaAdapter({ controlUrl: site.backends.kea!.controlUrl, subnetId: Number(site.config.site!.dhcp!.subnetId) });
  const created = await site.call('POST', '/v1/tenants', { body: { name: T } });
  expect(created.status).toBe(201);
  index = created.body.index;
  const w = await site.call('POST', `/v1/tenants/${T}/workloads`, { body: { name: 'web', cores: 2, memory_mb: 2048 } });
  expect(w.status, w.text).toBe(201);
  web = w.body;
  const x = await site.call('POST', `/v1/tenants/${T}/workloads`, { body: { name: 'extra' } });
  expect(x.status, x.text).toBe(201);
  extra = x.body;
  const k = await site.call('POST', `/v1/tenants/${T}/wifi-keys`, { body: { name: 'sensors', trust_class: 'sensor' } });
  expect(k.status, k.text).toBe(201);
  sensorsPsk = k.body.psk;
  expectStatus(await site.call('POST', `/v1/tenants/${T}/wifi-keys`, { body: { name: 'old', trust_class: 'sensor' } }), 201, site.logs);
  expectStatus(
    await site.call('POST', `/v1/tenants/${T}/devices`, { body: { name: 'probe', trust_class: 'sensor', mac: 'aa:bb:cc:00:26:01' } }),
    201,
    site.logs,
  );
  const a = await site.call('POST', `/v1/tenants/${T}/devices/probe/address`, { body: {} });
  expect(a.status, a.text).toBe(201);
  probe = a.body;
  for (const name of ['app', 'lost']) {
    const b = await site.call('POST', `/v1/tenants/${T}/broker-accounts`, { body: { name, publish: ['data/#'], subscribe: [] } });
    expect(b.status, b.text).toBe(201);
  }
});
afterAll(async () => {
  await admin?.close();
  await site?.stop();
});

/** The PowerDNS zone of the tenant, rrset by rrset, as its API serves it. */
async function zone(name: string): Promise<Array<{ name: string; type: string; ttl: number; records: { content: string }[] }>> {
  const pdns = site.backends.pdns;
  const res = await fetch(`${pdns.apiUrl}/servers/localhost/zones/${name}.`, { headers: { 'x-api-key': pdns.apiKey } });
  return res.status === 404 ? [] : ((await res.json()) as { rrsets: never[] }).rrsets;
}

const zoneName = () => `${T}.${site.config.site!.domain}`;

/** Maps and Sets as arrays; what only records that a call happened (call logs, tasks, sessions) left out. */
const VOLATILE = new Set(['calls', 'tasks', 'taskTiming', 'sessions', 'writes', 'loginAttempts']);
const plain = (v: unknown) => JSON.stringify(v, (k, x) => (VOLATILE.has(k) ? undefined : x instanceof Map ? [...x] : x instanceof Set ? [...x] : x));

/** Every backend and the registry as they stand: what a plan must leave exactly as it found it. */
async function census(): Promise<Record<string, string>> {
  const b = site.backends;
  const tables = ['tenants', 'workloads', 'records', 'devices', 'device_addresses', 'wifi_keys', 'broker_accounts', 'idempotency_keys', 'tenant_leases'];
  const registry: Record<string, unknown> = {};
  for (const t of tables) registry[t] = await site.registry.sql.unsafe(`select * from ${t} order by 1, 2`).catch(() => 'absent');
  const caddy = await (await fetch(`${b.logStore!.adminUrl}/config/`)).text();
  const resolver = await (await fetch(`${b.recursor.apiUrl}/servers/localhost/zones`, { headers: { 'x-api-key': b.recursor.apiKey } })).text();
  return {
    dns: plain([await zone(zoneName()), await zone(deriveIdentity(site.config.site!, T, index).reverseZone.replace(/\.$/, ''))]),
    resolver,
    kea: plain(await kea.list()),
    broker: plain(await admin.observeMany(await admin.listClients(`${T}-`))),
    proxmox: plain({ vms: b.proxmox.state.vms, sdn: b.proxmox.state.sdn }),
    minio: plain({ users: b.minio.state.users, policies: b.minio.state.policies }),
    grafana: plain(b.grafana!.state),
    unifi: plain(b.unifi!.state.sites),
    caddy,
    registry: plain(registry),
  };
}

describe('drift made behind the service', () => {
  let objects: Found[];
  let planned: Found[];
  let before: Record<string, string>;
  let after: Record<string, string>;

  beforeAll(async () => {
    // The hypervisor: the VM resized and stopped by hand; a VM in the tenant's VMID range the registry forgot.
    Object.assign(vm(web.vmid)!.config, { memory: '8192', cores: '6' });
    vm(web.vmid)!.status = 'stopped';
    await site.registry.sql`delete from workloads where tenant = ${T} and name = 'extra'`;
    // The controller: a key removed from the WLAN; a key whose stored copy cannot be opened.
    wlan().private_preshared_keys = wlan().private_preshared_keys.filter((e) => e.password !== sensorsPsk);
    await site.registry.sql`update wifi_keys set psk = 'gone:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' where tenant = ${T} and name = 'old'`;
    // The broker: a role's patterns changed, a client lost, a client the registry never held.
    await admin.ensure({ username: `${T}-app`, publish: [`${T}/elsewhere`], subscribe: [] });
    await admin.remove(`${T}-lost`);
    await admin.ensure({ username: `${T}-ghost`, publish: [`${T}/x`], subscribe: [] });
    // PowerDNS: the workload's A record deleted through its API; Kea: the device's reservation removed through its own.
    const pdns = site.backends.pdns;
    const del = await fetch(`${pdns.apiUrl}/servers/localhost/zones/${zoneName()}.`, {
      method: 'PATCH',
      headers: { 'x-api-key': pdns.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ rrsets: [{ name: `web.${zoneName()}.`, type: 'A', changetype: 'DELETE' }] }),
    });
    expect(del.status).toBe(204);
    await kea.remove({ address: probe.address });

    before = await census();
    const p = await reconcile('?plan=true');
    expect(p.status, p.text).toBe(200);
    expect(p.body.plan).toBe(true);
    planned = p.body.objects;
    after = await census();

    const r = await reconcile();
    expect(r.status, r.text).toBe(200);
    expect(r.body.outcome).toBe('reconciled');
    objects = r.body.objects;
  });

  it('a plan first: every backend and the registry exactly as they were', () => {
    for (const k of Object.keys(before)) expect(after[k], `${k} changed by a plan`).toBe(before[k]);
  });

  it('the plan reports, object by object, what the reconcile then did (same results, same fields)', () => {
    const notInPlace = (xs: Found[]) =>
      xs
        .filter((o) => o.result !== 'in-place')
        // How a write carried an object (`batch`, issue 32) is no part of what a plan, which writes nothing, reports.
        .map(({ batch: _batch, ...o }) => ({ ...o, fields: o.fields ? [...o.fields].sort() : undefined }))
        .sort((a, b) => `${a.area} ${a.object}`.localeCompare(`${b.area} ${b.object}`));
    expect(notInPlace(planned).length).toBeGreaterThanOrEqual(8);
    expect(notInPlace(planned)).toEqual(notInPlace(objects));
  });

  it('the plan answer carries no secret', () => {
    expect(JSON.stringify(planned)).not.toContain(sensorsPsk);
  });

  it("puts the workload's A record and the device's reservation back", async () => {
    expect(find(objects, 'dns', new RegExp(`^record web\\.${T}\\.`))).toEqual([expect.objectContaining({ result: 'created' })]);
    expect((await zone(zoneName())).some((r) => r.name === `web.${zoneName()}.` && r.type === 'A')).toBe(true);
    expect(find(objects, 'device-address', /^dhcp reservation /)).toEqual([expect.objectContaining({ result: 'created' })]);
    expect((await kea.list()).some((r) => r.address === probe.address && r.mac === 'aa:bb:cc:00:26:01')).toBe(true);
  });

  it("puts the workload's VM back as registered and names the fields that differed", () => {
    expect(find(objects, 'hypervisor', /^workload web /)).toEqual([
      { area: 'hypervisor', object: `workload web (vm ${web.vmid})`, result: 'corrected', fields: expect.arrayContaining(['cores', 'memory_mb', 'power']) },
    ]);
    expect(vm(web.vmid)!.config).toMatchObject({ memory: '2048', cores: '2' });
    expect(vm(web.vmid)!.status).toBe('running');
  });

  it('reports a VM in the tenant range the registry does not hold as unknown, and leaves it', () => {
    expect(find(objects, 'hypervisor', new RegExp(`^vm ${extra.vmid}\\b`))).toEqual([expect.objectContaining({ result: 'unknown' })]);
    expect(vm(extra.vmid)).toBeDefined();
  });

  it('puts a removed Wi-Fi key back with its stored psk; an unreadable one needs the tenant', () => {
    expect(find(objects, 'wifi', new RegExp(`${T}/sensors`))).toEqual([expect.objectContaining({ result: 'created' })]);
    expect(wlan().private_preshared_keys.filter((e) => e.password === sensorsPsk)).toHaveLength(1);
    expect(find(objects, 'wifi', new RegExp(`${T}/old`))).toEqual([expect.objectContaining({ result: 'needs-restore' })]);
  });

  it("restores a broker role's patterns, names a lost client needs-restore and a stranger unknown", async () => {
    expect(find(objects, 'broker', new RegExp(`^mqtt role ${T}-app$`))).toEqual([expect.objectContaining({ result: 'corrected', fields: ['publish'] })]);
    expect((await admin.observe(`${T}-app`))?.publish).toEqual([`${T}/data/#`]);
    expect(find(objects, 'broker', new RegExp(`^mqtt client ${T}-lost$`))).toEqual([expect.objectContaining({ result: 'needs-restore' })]);
    expect(await admin.observe(`${T}-lost`)).toBeNull();
    expect(find(objects, 'broker', new RegExp(`^mqtt client ${T}-ghost$`))).toEqual([expect.objectContaining({ result: 'unknown' })]);
    expect((await admin.observe(`${T}-ghost`))?.client).toBeTruthy();
  });

  it('still reports the tenant steps, every object once', () => {
    expect(objects.some((o) => o.area === 'dns' && o.result === 'in-place')).toBe(true);
    expect(new Set(objects.map((o) => `${o.area} ${o.object}`)).size).toBe(objects.length);
  });

  it('a saved plan with prune, applied, removes what the registry does not hold; then only what needs the tenant is left', async () => {
    expect((await reconcile('?prune=true')).status).toBe(400);
    const plan = await reconcile('?plan=true&prune=true');
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body).toMatchObject({ plan: true, prune: true, plan_id: expect.stringMatching(/^plan-/) });
    const pruned = await reconcile(`?apply=${plan.body.plan_id}`);
    expect(pruned.status, pruned.text).toBe(200);
    expect(pruned.body.applied_plan).toBe(plan.body.plan_id);
    expect(find(pruned.body.objects, 'hypervisor', new RegExp(`^vm ${extra.vmid}\\b`))).toEqual([expect.objectContaining({ result: 'removed' })]);
    expect(find(pruned.body.objects, 'broker', new RegExp(`^mqtt client ${T}-ghost$`))).toEqual([expect.objectContaining({ result: 'removed' })]);
    expect(vm(extra.vmid)).toBeUndefined();
    expect(await admin.observe(`${T}-ghost`)).toBeNull();

    const again = await reconcile();
    const left = (again.body.objects as Found[]).filter((o) => o.result !== 'in-place');
    expect(left.map((o) => `${o.area} ${o.result}`).sort()).toEqual(['broker needs-restore', 'wifi needs-restore']);
  });

  it("the sweep sums each tenant's objects by area and result, and never prunes", async () => {
    await admin.ensure({ username: `${T}-stray`, publish: [`${T}/y`], subscribe: [] });
    const result = await site.client.workflow.execute('reconcileSweep', {
      workflowId: `reconcile-sweep-drift`,
      taskQueue: site.config.env.TEMPORAL_TASK_QUEUE,
      args: [{ concurrency: 2 }],
    });
    expect(result.reconciled).toContain(T);
    expect(result.found[T]).toMatchObject({
      broker: { 'needs-restore': 1, unknown: 1 },
      wifi: { 'in-place': 1, 'needs-restore': 1 },
      hypervisor: { 'in-place': 1 },
      dns: expect.objectContaining({ 'in-place': expect.any(Number) }),
    });
    expect(result.corrected[T]).toEqual(expect.arrayContaining([`broker: mqtt client ${T}-stray unknown`]));
    expect((await admin.observe(`${T}-stray`))?.client).toBeTruthy();
  });

  it('refuses a prune or plan value that is not a boolean, prune without a plan, and apply beside either (400)', async () => {
    expect((await reconcile('?prune=yes')).status).toBe(400);
    expect((await reconcile('?plan=1')).status).toBe(400);
    const alone = await reconcile('?prune=true');
    expect(alone.status).toBe(400);
    expect(alone.body.error).toMatch(/prune only through a saved plan/);
    expect((await reconcile('?apply=plan-AAAAAAAAAAAAAAAA&plan=true')).status).toBe(400);
  });

  it('a plan sweep (SITE_SWEEP_MODE=plan) reports what it found and changes nothing', async () => {
    await admin.remove(`${T}-app`);
    const was = await census();
    const result = await site.client.workflow.execute('reconcileSweep', {
      workflowId: `reconcile-sweep-plan-drift`,
      taskQueue: site.config.env.TEMPORAL_TASK_QUEUE,
      args: [{ concurrency: 2, mode: 'plan' }],
    });
    expect(result.mode).toBe('plan');
    expect(result.planned).toContain(T);
    expect(result.reconciled).toEqual([]);
    expect(result.found[T].broker).toMatchObject({ 'needs-restore': 2 });
    expect(await census()).toEqual(was);
  });
});
