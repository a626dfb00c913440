import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Hono } from 'hono';
import { BackendError } from '../../core/backend-outcome.js';
import { workloadIdentity } from '../../core/workload-identity.js';
import { createProxmoxHypervisorAdapter, type HypervisorAdapter, type VmSpec } from '../../backends/proxmox/qemu.js';
import { deriveIdentity } from '../../core/identity.js';
import { labNetworkAdapter, twoNodeProxmoxSimulator } from '../support/pve-lab.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { vmDiskGb, type ProxmoxSimulator } from '../../apps/lab/simulators/proxmox/index.js';

// The hypervisor adapter against the Proxmox VE simulator: workloads as QEMU VMs on the tenant VNet.

const TOKEN_ID = 'svc@pve!provision';
const SECRET = '7d9b1a64-3c2e-4b8f-8e11-5a0c9f7b2d33';
const site = { supernet: '10.128.0.0/16', vrfVniBase: 10000, vnetVniBase: 100000, domain: 'lab.example', logAccountBase: 1000, vmidBase: 10000 };
// Real public keys: the simulator checks each with ssh-keygen, as PVE does.
const KEYS = [
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ2n4mYkqCgs7bKp0p3TnDLgH5x1ZyB3aWq0f2G8s9vX alice@laptop',
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCo7ZuTzEaUR9aKj9WGaGmEIik7nnjppsv3+ZhJ7igDCn59aY7AJdXwhar59aTCrIrWu4ng1H0gJD68xmaNmftrWzL1PSJul9xWdANY5/sOhLeVrtUU8Ubht7DUxGy9+1OjWwA0nDnl2OOFIqAY7JK6fdYAojJIp6t3IJ057b1WuBq+HGfWHjtT/VwieIZMzNPsehB9RvR2wFUnKZvm5b/72DmBvvZ7LM1yQVtF6BqjTZnq8/WdQ85JFZYO9DLHU01KypxntcmmnlEmoQZ09eaouvTGRI4e1UJOSCjR/ehfIUQN0xyWL1swQo/dVYGmDVWylcspmgYCyczuW+C+VUvj bob (work key)',
];

let sim: ProxmoxSimulator;
let server: RunningServer;
let hv: HypervisorAdapter;

const adapter = (taskTimeoutMs = 2_000) =>
  createProxmoxHypervisorAdapter({
    apiUrl: `${server.url}/api2/json`,
    tokenId: TOKEN_ID,
    tokenSecret: SECRET,
    node: 'pve1',
    storage: 'local-lvm',
    templatePrefix: 'tmpl-debian-',
    taskTimeoutMs,
  });

const tenant = deriveIdentity(site, 'acme', 5);

function specFor(ordinal: number, over: Partial<VmSpec> = {}): VmSpec {
  const id = workloadIdentity(site.vmidBase, { index: tenant.index, subnet: tenant.subnet }, ordinal);
  return {
    vmid: id.vmid,
    name: `web${ordinal}`,
    cores: 2,
    memoryMb: 2048,
    diskGb: 20,
    mac: id.mac,
    bridge: tenant.vnet,
    address: id.address,
    prefixLength: tenant.prefixLength,
    gateway: tenant.gateway,
    ciuser: 'tenant',
    sshKeys: KEYS,
    ...over,
  };
}

const taskCount = () => sim.state.tasks.size;

beforeAll(async () => {
  sim = twoNodeProxmoxSimulator(
    { id: TOKEN_ID, secret: SECRET },
    [
      { vmid: 9000, name: 'tmpl-debian-12.1', diskGb: 8 },
      { vmid: 9001, name: 'tmpl-debian-12.10', diskGb: 10 },
      { vmid: 9002, name: 'tmpl-debian-12.9', diskGb: 8 },
      { vmid: 9003, name: 'other-13', diskGb: 30 },
    ],
    // pvestatd's round, small here; tests that need the cluster's list current call sim.pvestatd().
    300,
  );
  server = await serveApp(sim.app);
  hv = adapter();
  // The tenant's VNet must run on the fabric for its VMs to start.
  const net = labNetworkAdapter(server.url, { id: TOKEN_ID, secret: SECRET }, site);
  await net.ensure({
    tenant: 'acme',
    index: 5,
    vrfVni: tenant.vrfVni,
    vnet: tenant.vnet,
    vnetTag: tenant.vnetTag,
    subnet: tenant.subnet,
    gateway: tenant.gateway,
  });
});
afterAll(async () => server?.close());

describe('templates', () => {
  it('newestTemplate is the highest name in version order among those with the prefix', async () => {
    expect(await hv.newestTemplate()).toEqual({ vmid: 9001, node: 'pve1', name: 'tmpl-debian-12.10', diskGb: 10 });
  });
});

describe('ensure', () => {
  const web0 = specFor(0);

  it('clones the newest template, configures, grows the disk and starts the VM', async () => {
    expect(await hv.observe(web0.vmid)).toBeUndefined();
    expect(await hv.ensure(web0)).toEqual([{ object: `vm ${web0.vmid}`, result: 'created' }]);
    const vm = sim.state.vms.get(web0.vmid)!;
    expect(vm.status).toBe('running');
    expect(vm.config).toMatchObject({
      name: 'web0',
      cores: '2',
      memory: '2048',
      net0: `virtio=${web0.mac.toUpperCase()},bridge=tv05`,
      ipconfig0: 'ip=10.128.5.10/24,gw=10.128.5.1',
      ciuser: 'tenant',
    });
    expect(vm.config.scsi0).toMatch(/^local-lvm:vm-10200-disk-0,/);
    expect(vmDiskGb(vm)).toBe(20);
    expect(decodeURIComponent(vm.config.sshkeys!).split('\n')).toEqual(KEYS);
    expect(vm.config.lock).toBeUndefined();
    const clones = [...sim.state.tasks.values()].filter((t) => t.type === 'qmclone');
    expect(clones.map((t) => t.id)).toEqual(['9001']);
  });

  it('a second ensure is in-place and starts no task', async () => {
    const before = taskCount();
    expect(await hv.ensure(web0)).toEqual([{ object: `vm ${web0.vmid}`, result: 'in-place' }]);
    expect(taskCount()).toBe(before);
  });

  it('observe reports what the VM is', async () => {
    expect(await hv.observe(web0.vmid)).toMatchObject({
      vmid: web0.vmid,
      name: 'web0',
      status: 'running',
      template: false,
      cores: 2,
      memoryMb: 2048,
      diskGb: 20,
      bridge: 'tv05',
      ip: '10.128.5.10/24',
      gateway: '10.128.5.1',
      sshKeys: KEYS,
    });
  });

  it('corrects drift: a stopped VM with altered cores and NIC is reconfigured and started', async () => {
    const vm = sim.state.vms.get(web0.vmid)!;
    vm.status = 'stopped';
    vm.config.cores = '8';
    vm.config.net0 = 'e1000=BC:24:11:00:00:01,bridge=vmbr0';
    expect(await hv.ensure(web0)).toEqual([{ object: `vm ${web0.vmid}`, result: 'corrected', fields: ['cores', 'network', 'power'] }]);
    expect(vm.status).toBe('running');
    expect(vm.config.cores).toBe('2');
    expect(vm.config.net0).toBe(`virtio=${web0.mac.toUpperCase()},bridge=tv05`);
  });

  it('takes new sizing and grows the disk; a smaller disk later never shrinks it', async () => {
    expect((await hv.ensure({ ...web0, cores: 4, memoryMb: 4096, diskGb: 30 }))[0]?.result).toBe('corrected');
    const vm = sim.state.vms.get(web0.vmid)!;
    expect([vm.config.cores, vm.config.memory, vmDiskGb(vm)]).toEqual(['4', '4096', 30]);
    expect((await hv.ensure({ ...web0, cores: 4, memoryMb: 4096, diskGb: 24 }))[0]?.result).toBe('in-place');
    expect(vmDiskGb(vm)).toBe(30);
  });

  it("refuses a disk smaller than the template's, naming the template size, before cloning", async () => {
    const small = specFor(1, { diskGb: 4 });
    const err = (await hv.ensure(small).catch((e: unknown) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    expect(err.retryable).toBe(false);
    expect(err.detail).toMatch(/template's disk of 10 GB/);
    expect(sim.state.vms.has(small.vmid)).toBe(false);
  });

  it('without diskGb the VM keeps the template size', async () => {
    const plain = specFor(2, { diskGb: undefined, sshKeys: [] });
    await hv.ensure(plain);
    const vm = sim.state.vms.get(plain.vmid)!;
    expect(vmDiskGb(vm)).toBe(10);
    expect(vm.config.sshkeys).toBeUndefined();
  });

  it('a VM on a VNet the fabric does not run fails to start, as a BackendError', async () => {
    const err = (await hv.ensure(specFor(3, { bridge: 'tv99' })).catch((e: unknown) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    expect(err.detail).toMatch(/qmstart .* failed: bridge 'tv99' does not exist/);
  });
});

describe('remove', () => {
  it('stops a running VM, then destroys it; removing again is fine', async () => {
    const spec = specFor(4);
    await hv.ensure(spec);
    expect(sim.state.vms.get(spec.vmid)?.status).toBe('running');
    await hv.remove(spec.vmid);
    expect(sim.state.vms.has(spec.vmid)).toBe(false);
    const types = [...sim.state.tasks.values()].filter((t) => t.id === String(spec.vmid)).map((t) => t.type);
    expect(types.slice(-2)).toEqual(['qmstop', 'qmdestroy']);
    await expect(hv.remove(spec.vmid)).resolves.toBeUndefined();
  });

  it('never removes a template', async () => {
    await expect(hv.remove(9001)).rejects.toMatchObject({ retryable: false });
    expect(sim.state.vms.has(9001)).toBe(true);
  });
});

describe('failures', () => {
  it('an injected fault on clone throws a BackendError; the repeated ensure converges', async () => {
    const spec = specFor(5);
    sim.faults.add({ failNext: 1, status: 500, match: '/clone' });
    await expect(hv.ensure(spec)).rejects.toBeInstanceOf(BackendError);
    expect(sim.state.vms.has(spec.vmid)).toBe(false);
    expect((await hv.ensure(spec))[0]?.result).toBe('created');
  });

  it('a fault injected over HTTP on the config write surfaces too', async () => {
    const spec = specFor(5, { cores: 3 });
    await fetch(`${server.url}/__lab/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail_next: 1, status: 503, match: '/config', method: 'POST' }),
    });
    const err = (await hv.ensure(spec).catch((e: unknown) => e)) as BackendError;
    expect(err.status).toBe(503);
    expect((await hv.ensure(spec))[0]?.result).toBe('corrected');
  });

  it('a start task that never finishes hits the bound', async () => {
    const spec = specFor(6);
    sim.state.taskTiming.stall.add('qmstart');
    try {
      const err = (await adapter(150)
        .ensure(spec)
        .catch((e: unknown) => e)) as BackendError;
      expect(err).toBeInstanceOf(BackendError);
      expect(err.retryable).toBe(true);
      expect(err.detail).toMatch(/qmstart .* still running after 150 ms/);
    } finally {
      sim.state.taskTiming.stall.clear();
      sim.releaseTasks();
    }
  });
});

describe('long clones (a real full clone runs for minutes)', () => {
  const waitUntil = async (check: () => boolean) => {
    while (!check()) await new Promise((r) => setTimeout(r, 10));
  };

  it('a repeat while the first clone is still copying waits for its lock, then converges; one clone in all', async () => {
    const spec = specFor(7);
    sim.state.taskTiming.stall.add('qmclone');
    const clonesBefore = [...sim.state.tasks.values()].filter((t) => t.type === 'qmclone').length;
    // The first attempt's worker "dies" while the clone runs: its promise is simply not awaited.
    const first = adapter(60_000)
      .ensure(spec)
      .catch((e: unknown) => e);
    await waitUntil(() => sim.state.vms.get(spec.vmid)?.config.lock === 'clone');
    const retry = adapter(60_000).ensure(spec);
    try {
      // The retry observes the locked target and waits; nothing else is started meanwhile.
      await new Promise((r) => setTimeout(r, 300));
      expect(sim.state.vms.get(spec.vmid)?.config).toEqual({ lock: 'clone', digest: expect.any(String) });
    } finally {
      sim.state.taskTiming.stall.clear();
      sim.releaseTasks();
    }
    // Both attempts succeed, whichever of them configures the VM once the copy is done.
    expect(['corrected', 'in-place']).toContain((await retry)[0]?.result);
    expect(await first).toEqual([{ object: `vm ${spec.vmid}`, result: expect.stringMatching(/created|in-place/) }]);
    const vm = sim.state.vms.get(spec.vmid)!;
    expect(vm.status).toBe('running');
    expect(vm.config).toMatchObject({ name: spec.name, net0: `virtio=${spec.mac.toUpperCase()},bridge=tv05`, ipconfig0: 'ip=10.128.5.17/24,gw=10.128.5.1' });
    expect([...sim.state.tasks.values()].filter((t) => t.type === 'qmclone').length).toBe(clonesBefore + 1);
  });

  it('a clone that fails unlinks its target; the repeat clones again', async () => {
    const spec = specFor(8);
    sim.state.taskTiming.failures.set('qmclone', "storage 'local-lvm' is full");
    try {
      const err = (await adapter(60_000)
        .ensure(spec)
        .catch((e: unknown) => e)) as BackendError;
      expect(err.detail).toMatch(/qmclone .* failed: clone failed: storage 'local-lvm' is full/);
      expect(sim.state.vms.has(spec.vmid)).toBe(false);
    } finally {
      sim.state.taskTiming.failures.clear();
    }
    expect((await adapter(60_000).ensure(spec))[0]?.result).toBe('created');
  });

  it('remove waits for a running clone, then destroys the VM', async () => {
    const spec = specFor(9);
    sim.state.taskTiming.stall.add('qmclone');
    const creating = adapter(60_000)
      .ensure(spec)
      .catch((e: unknown) => e);
    await waitUntil(() => sim.state.vms.get(spec.vmid)?.config.lock === 'clone');
    const removing = adapter(60_000).remove(spec.vmid);
    await new Promise((r) => setTimeout(r, 100));
    sim.state.taskTiming.stall.clear();
    sim.releaseTasks();
    await removing;
    await creating;
    // Either the create finished first and remove destroyed it, or remove won: never left locked.
    expect(sim.state.vms.get(spec.vmid)?.config.lock).toBeUndefined();
  });

  it('a VM suspended by an operator is refused at once, not waited on', async () => {
    const spec = specFor(0);
    const vm = sim.state.vms.get(spec.vmid)!;
    vm.config.lock = 'suspended';
    try {
      const err = (await adapter(60_000)
        .ensure(spec)
        .catch((e: unknown) => e)) as BackendError;
      expect(err.retryable).toBe(false);
      expect(err.detail).toMatch(/locked \(suspended\); an operator must clear it/);
    } finally {
      delete vm.config.lock;
    }
  });
});

describe('VMIDs are cluster-wide (an operator may migrate a VM)', () => {
  it('a VM migrated to another node is found there: reported running, corrected on its node, removed there', async () => {
    const spec = specFor(10);
    await hv.ensure(spec);
    sim.migrate(spec.vmid, 'pve2');
    expect(await hv.observe(spec.vmid)).toMatchObject({ vmid: spec.vmid, node: 'pve2', status: 'running', name: spec.name });
    // Drift on the migrated VM is corrected where it is, not reported missing and cloned again.
    sim.state.vms.get(spec.vmid)!.config.cores = '7';
    expect(await hv.ensure(spec)).toEqual([{ object: `vm ${spec.vmid}`, result: 'corrected', fields: ['cores'] }]);
    expect(sim.state.vms.get(spec.vmid)).toMatchObject({ node: 'pve2', config: expect.objectContaining({ cores: '2' }) });
    const cfgTasks = [...sim.state.tasks.values()].filter((t) => t.type === 'qmconfig' && t.id === String(spec.vmid));
    expect(cfgTasks.at(-1)?.node).toBe('pve2');
    await hv.remove(spec.vmid);
    expect(sim.state.vms.has(spec.vmid)).toBe(false);
  });

  // A copy of the newest template as an operator adds it on another node, its volumes on `storage`.
  function addTemplate(vmid: number, node: string, name: string, storage: string): void {
    const config = Object.fromEntries(Object.entries(sim.state.vms.get(9001)!.config).map(([k, v]) => [k, v.replace(/^local-lvm:/, `${storage}:`)]));
    sim.state.vms.set(vmid, { vmid, node, status: 'stopped', config: { ...config, name } });
    sim.pvestatd();
  }

  /** `addTemplate` while `body` runs, removed after it however it ends. */
  async function withTemplate(vmid: number, node: string, storage: string, body: () => Promise<void>): Promise<void> {
    addTemplate(vmid, node, 'tmpl-debian-13.0', storage);
    try {
      await body();
    } finally {
      sim.state.vms.delete(vmid);
    }
  }

  /** The node and the template of the newest clone task. */
  const lastCloneFrom = () => {
    const clone = [...sim.state.tasks.values()].filter((t) => t.type === 'qmclone').at(-1);
    return [clone?.node, clone?.id];
  };

  it('a template on shared storage on another node is cloned onto the site node (clone target)', () =>
    withTemplate(9100, 'pve2', 'ceph', async () => {
      expect(await hv.newestTemplate()).toMatchObject({ vmid: 9100, node: 'pve2' });
      const spec = specFor(11);
      expect((await hv.ensure(spec))[0]?.result).toBe('created');
      expect(sim.state.vms.get(spec.vmid)).toMatchObject({ node: 'pve1', status: 'running' });
      expect(lastCloneFrom()).toEqual(['pve2', '9100']);
      await hv.remove(spec.vmid);
    }));

  // Issue 28 item 1: per-node templates on local storage (local-lvm, ZFS).
  it('of templates on local storage, the newest on the site node is used; a newer one on another node is not', () =>
    withTemplate(9101, 'pve2', 'local-lvm', async () => {
      expect(await hv.newestTemplate()).toMatchObject({ vmid: 9001, node: 'pve1', name: 'tmpl-debian-12.10' });
      const spec = specFor(12);
      expect((await hv.ensure(spec))[0]?.result).toBe('created');
      expect(lastCloneFrom()).toEqual(['pve1', '9001']);
      await hv.remove(spec.vmid);
    }));

  it("of two copies of one template name (one per node), the site node's is used, without target", async () => {
    addTemplate(9102, 'pve2', 'tmpl-debian-13.0', 'local-lvm');
    addTemplate(9103, 'pve1', 'tmpl-debian-13.0', 'local-lvm');
    try {
      expect(await hv.newestTemplate()).toMatchObject({ vmid: 9103, node: 'pve1' });
    } finally {
      sim.state.vms.delete(9102);
      sim.state.vms.delete(9103);
    }
  });

  it("only templates on another node's local storage: a refusal that says what to fix, no clone tried", async () => {
    const own = [9000, 9001, 9002].map((id) => [id, sim.state.vms.get(id)!] as const);
    for (const [, vm] of own) vm.node = 'pve2';
    sim.pvestatd();
    try {
      const clones = [...sim.state.tasks.values()].filter((t) => t.type === 'qmclone').length;
      const err = (await hv.ensure(specFor(13)).catch((e: unknown) => e)) as BackendError;
      expect(err).toBeInstanceOf(BackendError);
      expect(err.retryable).toBe(false);
      expect(err.detail).toMatch(/tmpl-debian-12\.10 \(VM 9001\) is on node pve2 with volumes on local storage local-lvm/);
      expect(err.detail).toMatch(/Put a copy of the template on pve1, or its disks on shared storage/);
      expect([...sim.state.tasks.values()].filter((t) => t.type === 'qmclone').length).toBe(clones);
      expect(sim.state.vms.has(specFor(13).vmid)).toBe(false);
    } finally {
      for (const [, vm] of own) delete vm.node;
      sim.pvestatd();
    }
  });

  it('PVE refusing the clone (storage made local after it was read) is a refusal, not a retry', async () => {
    addTemplate(9104, 'pve2', 'tmpl-debian-13.0', 'ceph');
    // storage.cfg as the clone reads it: ceph no longer shared (the node's list still said so).
    const storages = sim.state.storages;
    const get = storages.get.bind(storages);
    storages.get = (id: string) => (id === 'ceph' ? { type: 'rbd', shared: false } : get(id));
    try {
      const err = (await hv.ensure(specFor(14)).catch((e: unknown) => e)) as BackendError;
      expect(err).toBeInstanceOf(BackendError);
      expect(err.retryable).toBe(false);
      expect(err.detail).toMatch(
        /template tmpl-debian-13\.0 \(VM 9104\) on node pve2 uses local storage, so it cannot be cloned to node pve1; put a copy of the template on pve1/,
      );
      expect(err.detail).toMatch(/can't clone VM to node 'pve1' \(VM uses local storage\)/);
    } finally {
      storages.get = get;
      sim.state.vms.delete(9104);
    }
  });
});

// Issue 28 item 3: `/cluster/resources` is pvestatd's cache (up to ~10 s old, a new VM `unknown`
// with no name); starts, stops and destroys are decided on the node's `status/current`.
describe('stale status in the cluster list', () => {
  async function withSlowPvestatd(run: () => Promise<void>): Promise<void> {
    const before = sim.state.stats.intervalMs;
    sim.state.stats.intervalMs = 60_000;
    sim.pvestatd();
    try {
      await run();
    } finally {
      sim.state.stats.intervalMs = before;
      sim.pvestatd();
    }
  }
  const starts = (vmid: number) => [...sim.state.tasks.values()].filter((t) => t.type === 'qmstart' && t.id === String(vmid)).length;

  it('a create repeated at once (the list still says unknown) is in-place: no second start', async () => {
    const spec = specFor(20);
    await withSlowPvestatd(async () => {
      await pveList(); // pvestatd's round, before the VM exists
      expect((await hv.ensure(spec))[0]?.result).toBe('created');
      expect((await pveList()).find((v) => v.vmid === spec.vmid)).toMatchObject({ status: 'unknown' });
      expect(await hv.ensure(spec)).toEqual([{ object: `vm ${spec.vmid}`, result: 'in-place' }]);
      expect(starts(spec.vmid)).toBe(1);
    });
    await hv.remove(spec.vmid);
  });

  it('two creates that both start a stopped VM: "already running" fails neither', async () => {
    const spec = specFor(21);
    await hv.ensure(spec);
    sim.state.vms.get(spec.vmid)!.status = 'stopped';
    const results = await Promise.all([hv.ensure(spec), adapter().ensure(spec)]);
    expect(results.map((r) => r[0]?.result)).toEqual(['corrected', 'corrected']);
    expect(sim.state.vms.get(spec.vmid)!.status).toBe('running');
    await hv.remove(spec.vmid);
  });

  it('a delete of a VM the list still says is stopped (started since) stops it first, and is done', async () => {
    const spec = specFor(22);
    await hv.ensure(spec);
    const vm = sim.state.vms.get(spec.vmid)!;
    await withSlowPvestatd(async () => {
      vm.status = 'stopped';
      await pveList(); // pvestatd saw it stopped
      vm.status = 'running';
      expect((await pveList()).find((v) => v.vmid === spec.vmid)).toMatchObject({ status: 'stopped' });
      await hv.remove(spec.vmid);
      expect(sim.state.vms.has(spec.vmid)).toBe(false);
    });
  });
});

async function pveList(): Promise<Array<{ vmid: number; status: string; name?: string }>> {
  const res = await fetch(`${server.url}/api2/json/cluster/resources?type=vm`, { headers: { authorization: `PVEAPIToken=${TOKEN_ID}=${SECRET}` } });
  return ((await res.json()) as { data: Array<{ vmid: number; status: string; name?: string }> }).data;
}

describe("a reconcile's status reads", () => {
  it('reads the live status once per node (its VM list), not once per VM, and acts on it', async () => {
    const specs = [specFor(20), specFor(21), specFor(22)];
    for (const s of specs) await hv.ensure(s);
    // Stopped by hand (the cluster's list, pvestatd's cache, may still say running).
    sim.state.vms.get(specs[1]!.vmid)!.status = 'stopped';
    const paths: string[] = [];
    const counting = new Hono();
    counting.use('*', async (c, next) => {
      paths.push(new URL(c.req.url).pathname);
      await next();
    });
    counting.route('/', sim.app);
    const front = await serveApp(counting);
    try {
      const counted = createProxmoxHypervisorAdapter({
        apiUrl: `${front.url}/api2/json`,
        tokenId: TOKEN_ID,
        tokenSecret: SECRET,
        node: 'pve1',
        storage: 'local-lvm',
        templatePrefix: 'tmpl-debian-',
        taskTimeoutMs: 2_000,
      });
      const range = { first: specs[0]!.vmid, last: specs[2]!.vmid };
      const claims = async () => ({ correct: specs, claimed: new Set<number>() });
      const planned = await counted.reconcile(range, 'plan', claims);
      expect(planned).toEqual([
        { object: `vm ${specs[0]!.vmid}`, result: 'in-place' },
        { object: `vm ${specs[1]!.vmid}`, result: 'corrected', fields: ['power'] },
        { object: `vm ${specs[2]!.vmid}`, result: 'in-place' },
      ]);
      expect(paths.filter((p) => p.endsWith('/status/current'))).toEqual([]);
      expect(paths.filter((p) => /\/nodes\/[^/]+\/qemu$/.test(p))).toEqual(['/api2/json/nodes/pve1/qemu']);
      expect(sim.state.vms.get(specs[1]!.vmid)!.status).toBe('stopped');
      expect((await counted.reconcile(range, 'correct', claims))[1]).toEqual({ object: `vm ${specs[1]!.vmid}`, result: 'corrected', fields: ['power'] });
      expect(sim.state.vms.get(specs[1]!.vmid)!.status).toBe('running');
    } finally {
      await front.close();
    }
  });
});
