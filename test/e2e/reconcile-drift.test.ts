import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynsecAdapter, type BrokerAdapter } from '../../activities/broker/dynsec.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * A reconcile covers everything the registry holds for a tenant (issue 26): after its own steps,
 * its workloads' VMs, its Wi-Fi keys and its broker accounts, each area one step activity. Drift is
 * made behind the service's back through the products themselves (the Proxmox and UniFi
 * simulators' state, the real Mosquitto's dynamic-security API) and the reconcile's answer says,
 * per object, what it found: corrected with the fields that differed, created, needs-restore for
 * what only the tenant can restore, unknown for what the registry does not hold (removed only with
 * `prune=true`).
 */
let site: TestSite;
let admin: BrokerAdapter;
let web: { vmid: number; memory_mb: number; cores: number };
let extra: { vmid: number };
let sensorsPsk: string;

const T = 'drift';
const reconcile = (query = '') => site.call('POST', `/v1/tenants/${T}/reconcile${query}`);
const vm = (vmid: number) => site.backends.proxmox.state.vms.get(vmid);
const wlan = () => site.backends.unifi!.wlan('lab-devices')!;
type Found = { area: string; object: string; result: string; fields?: string[] };
const find = (objects: Found[], area: string, object: RegExp) => objects.filter((o) => o.area === area && object.test(o.object));

beforeAll(async () => {
  site = await startTestSite();
  const m = site.backends.mosquitto!;
  admin = createDynsecAdapter({ url: m.url, adminUser: m.adminUser, adminPassword: m.adminPassword });
  expect((await site.call('POST', '/v1/tenants', { body: { name: T } })).status).toBe(201);
  const w = await site.call('POST', `/v1/tenants/${T}/workloads`, { body: { name: 'web', cores: 2, memory_mb: 2048 } });
  expect(w.status, w.text).toBe(201);
  web = w.body;
  const x = await site.call('POST', `/v1/tenants/${T}/workloads`, { body: { name: 'extra' } });
  expect(x.status, x.text).toBe(201);
  extra = x.body;
  const k = await site.call('POST', `/v1/tenants/${T}/wifi-keys`, { body: { name: 'sensors', trust_class: 'sensor' } });
  expect(k.status, k.text).toBe(201);
  sensorsPsk = k.body.psk;
  expect((await site.call('POST', `/v1/tenants/${T}/wifi-keys`, { body: { name: 'old', trust_class: 'sensor' } })).status).toBe(201);
  for (const name of ['app', 'lost']) {
    const b = await site.call('POST', `/v1/tenants/${T}/broker-accounts`, { body: { name, publish: ['data/#'], subscribe: [] } });
    expect(b.status, b.text).toBe(201);
  }
});
afterAll(async () => {
  await admin?.close();
  await site?.stop();
});

describe('drift made behind the service', () => {
  let objects: Found[];

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

    const r = await reconcile();
    expect(r.status, r.text).toBe(200);
    expect(r.body.outcome).toBe('reconciled');
    objects = r.body.objects;
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

  it('with prune=true removes what the registry does not hold; then only what needs the tenant is left', async () => {
    const pruned = await reconcile('?prune=true');
    expect(pruned.status, pruned.text).toBe(200);
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
      workflowId: `reconcile-sweep-drift`, taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, args: [{ concurrency: 2 }],
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

  it('refuses a prune value that is not a boolean (400)', async () => {
    expect((await reconcile('?prune=yes')).status).toBe(400);
  });
});
