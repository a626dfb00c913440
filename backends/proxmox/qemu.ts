import type { BackendCalls } from '../http/calls.js';
import { BackendError, removes, type ObjectOutcome, type ReconcileMode } from '../../core/backend-outcome.js';
import { ensure as ensureOne, plan as planOne, type Observation, type ObjectKind } from '../reconcile/reconcile.js';
import { PveApi } from './pve-api.js';
import { checkDisk } from '../../core/disk-size.js';
import {
  bootDiskGb,
  bootDiskKey,
  compareVersionNames,
  decodeSshKeys,
  encodeSshKeys,
  formatIpconfig,
  formatNet,
  memoryMb,
  parseIpconfig,
  parseNet,
  sameKeys,
  type VmConfig,
} from './vm-config.js';

/**
 * A tenant workload as a QEMU VM on Proxmox VE: a full clone of the site's newest template
 * (by name prefix, highest name in version order) that can be cloned to the site's node (on it,
 * or on shared storage on another node: pickTemplate) onto the site's node and storage, configured
 * with the workload's derived MAC on the tenant's VNet, its address through cloud-init, the
 * login user and keys, grown to `diskGb` (never shrunk), and running. Every change that PVE
 * runs as a worker task is polled to its end within `taskTimeoutMs`.
 * Sizing changed on a running VM is written to its config; PVE applies what cannot be
 * hot-plugged at the VM's next start. SSH keys are read by cloud-init at first boot only.
 */
export interface VmSpec {
  vmid: number;
  name: string;
  cores: number;
  memoryMb: number;
  /** Grows the template's disk; undefined keeps the template's size. */
  diskGb?: number;
  mac: string;
  /** The tenant's VNet id. */
  bridge: string;
  address: string;
  prefixLength: number;
  gateway: string;
  ciuser: string;
  sshKeys: string[];
}

export interface VmObservation {
  vmid: number;
  /** The cluster node the VM is on now (an operator may have migrated it). */
  node: string;
  name?: string;
  status: string;
  template: boolean;
  lock?: string;
  cores?: number;
  memoryMb?: number;
  diskKey?: string;
  diskGb?: number;
  nicModel?: string;
  mac?: string;
  bridge?: string;
  /** `ip` of ipconfig0, CIDR. */
  ip?: string;
  gateway?: string;
  ciuser?: string;
  sshKeys: string[];
}

export interface TemplateInfo {
  vmid: number;
  node: string;
  name: string;
  diskGb: number;
}

export interface HypervisorAdapter {
  newestTemplate(): Promise<TemplateInfo>;
  observe(vmid: number): Promise<VmObservation | undefined>;
  ensure(spec: VmSpec): Promise<ObjectOutcome[]>;
  /**
   * A reconcile of one tenant's VMs from one list of the cluster's guests. `claims`, asked once
   * that list is read (so a VM made after it is not in it, and one made before is claimed),
   * names the VMs to ensure (a correction names the fields that differed) and the VMIDs the
   * registry or a run holds otherwise, which are left exactly as they are (the caller reports
   * them). Every other VM whose VMID is in `range` is `unknown`, destroyed only when `prune`. A
   * `plan` observes and writes nothing.
   */
  reconcile(range: { first: number; last: number }, mode: ReconcileMode, claims: () => Promise<VmClaims>): Promise<ObjectOutcome[]>;
  /** Stop, then destroy; absent is fine. */
  remove(vmid: number): Promise<void>;
}

/** What the registry and the runs hold of a tenant's VMs, for a reconcile (core/object-life.ts). */
export interface VmClaims {
  /** The VMs of settled workloads: ensured, or planned. */
  correct: VmSpec[];
  /** Every VMID a registry row (any status) or a run claims: never `unknown`, never pruned. */
  claimed: ReadonlySet<number>;
}

/** The API's word for each VM setting the ensure corrects, for a reconcile's `fields`. */
const FIELD_OF: Record<string, string> = {
  name: 'name',
  cores: 'cores',
  memory: 'memory_mb',
  net0: 'network',
  ipconfig0: 'address',
  ciuser: 'login_user',
  sshkeys: 'ssh_keys',
};

export interface ProxmoxHypervisorOptions {
  apiUrl: string;
  tokenId: string;
  tokenSecret: string;
  node: string;
  storage: string;
  templatePrefix: string;
  /**
   * Bound on each task (clone, config, resize, start, stop, destroy) and on waiting for a VM's
   * lock to clear: the site's SITE_HYPERVISOR_TASK_TIMEOUT, sized for a full clone (minutes).
   */
  taskTimeoutMs: number;
  timeoutMs?: number; /** PEM certificates to trust for the API's HTTPS (the cluster's CA); public roots when absent. */
  ca?: string;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
}

/** An entry of `GET /cluster/resources?type=vm` (pve-manager API2/Cluster.pm). */
interface ListedVm {
  type: string;
  vmid: number;
  node: string;
  name?: string;
  status: string;
  template?: number | string | boolean;
}

/** The storages of a VM's volumes: disks, and CD-ROMs other than `none`/`cdrom` (the cloud-init drive among them). */
function volumeStorages(config: VmConfig): string[] {
  const stores = new Set<string>();
  for (const [k, v] of Object.entries(config)) {
    if (!/^(scsi|virtio|sata|ide|efidisk|tpmstate)\d+$/.test(k)) continue;
    const vol = String(v).split(',')[0] ?? '';
    if (vol === 'none' || vol === 'cdrom' || !vol.includes(':') || vol.startsWith('/')) continue;
    stores.add(vol.split(':')[0]!);
  }
  return [...stores];
}

/** Locks that record a state rather than a running task (qemu-server's `lock` enum). */
const STATE_LOCKS = new Set(['suspended']);

/** What the adapter's functions share: the site's PVE API and options. */
interface Hypervisor {
  pve: PveApi;
  opts: ProxmoxHypervisorOptions;
}

export function createProxmoxHypervisorAdapter(opts: ProxmoxHypervisorOptions): HypervisorAdapter {
  const ctx: Hypervisor = { pve: new PveApi({ ...opts, product: 'proxmox' }), opts };
  return {
    newestTemplate: () => newestTemplate(ctx),
    observe: (vmid: number) => observe(ctx, vmid),
    ensure: (spec: VmSpec) => ensure(ctx, spec),
    reconcile: (range, mode, claims) => reconcile(ctx, range, mode, claims),
    remove: (vmid) => remove(ctx, vmid),
  };
}

const qemuOn = (node: string) => `/nodes/${encodeURIComponent(node)}/qemu`;
const refuse = (detail: string) => new BackendError('proxmox', detail, false);
const isTemplate = (t: ListedVm['template']) => t === true || Number(t ?? 0) === 1;

// VMIDs are cluster-wide and an operator may migrate a VM: look guests up in the cluster's
// list, then talk to the node each one is on. A node's own list knows only its guests.
const listVms = async (ctx: Hypervisor) => (await ctx.pve.get<ListedVm[]>('/cluster/resources', { type: 'vm' })).filter((v) => v.type === 'qemu');

/**
 * The VM as its node says it is now. The cluster's list (`/cluster/resources`) only says where
 * a VM is: its status there is pvestatd's cache, up to ~10 s old (a new VM is `unknown`, with no
 * name), so the status every start, stop and destroy is decided on is `status/current`'s.
 */
async function observe(ctx: Hypervisor, vmid: number, guests?: ListedVm[], live?: Map<number, string>): Promise<VmObservation | undefined> {
  const listed = (guests ?? (await listVms(ctx))).find((v) => Number(v.vmid) === vmid);
  if (!listed) return undefined;
  const qemu = qemuOn(listed.node);
  const status = live?.get(vmid);
  const [config, current] = await Promise.all([
    ctx.pve.get<VmConfig>(`${qemu}/${vmid}/config`),
    status !== undefined ? { status } : ctx.pve.get<{ status?: string }>(`${qemu}/${vmid}/status/current`),
  ]);
  const net = parseNet(config.net0);
  const ipc = parseIpconfig(config.ipconfig0);
  return {
    vmid,
    node: listed.node,
    name: config.name === undefined ? undefined : String(config.name),
    status: String(current?.status ?? 'unknown'),
    template: Number(config.template ?? 0) === 1,
    lock: config.lock === undefined ? undefined : String(config.lock),
    cores: config.cores === undefined ? undefined : Number(config.cores),
    memoryMb: memoryMb(config.memory),
    diskKey: bootDiskKey(config),
    diskGb: bootDiskGb(config),
    nicModel: net.model,
    mac: net.mac,
    bridge: net.bridge,
    ip: ipc.ip,
    gateway: ipc.gw,
    ciuser: config.ciuser === undefined ? undefined : String(config.ciuser),
    sshKeys: decodeSshKeys(config.sshkeys),
  };
}

/** Whether each storage is shared, as the node reads storage.cfg (`GET /nodes/{node}/storage`). */
async function sharedStorages(ctx: Hypervisor, node: string): Promise<Map<string, boolean>> {
  const list = await ctx.pve.get<Array<{ storage: string; shared?: number | string | boolean }>>(`/nodes/${encodeURIComponent(node)}/storage`);
  return new Map(list.map((s) => [s.storage, s.shared === true || Number(s.shared ?? 0) === 1]));
}

/**
 * The template a new VM is cloned from, and whether the clone needs `target`. Templates carry
 * the site's prefix, newest version first; of one version, the copy on the site's node comes
 * first (sites with local storage keep a copy per node, of one name). A template on another
 * node is usable only when every volume it has is on shared storage: PVE refuses `target`
 * otherwise (qemu-server clone_vm, "can't clone VM to node ... (VM uses local storage)").
 * The newest usable template wins; none usable is a refusal naming what to fix.
 */
async function pickTemplate(ctx: Hypervisor): Promise<TemplateInfo & { target?: string }> {
  const { opts } = ctx;
  const templates = (await listVms(ctx))
    .filter((v) => isTemplate(v.template) && (v.name ?? '').startsWith(opts.templatePrefix))
    .sort(
      (a, b) =>
        compareVersionNames(b.name ?? '', a.name ?? '') || Number(b.node === opts.node) - Number(a.node === opts.node) || Number(a.vmid) - Number(b.vmid),
    );
  if (templates.length === 0) throw refuse(`no template named ${opts.templatePrefix}* in the cluster`);
  const local: string[] = [];
  const shared = new Map<string, Map<string, boolean>>();
  for (const t of templates) {
    const config = await ctx.pve.get<VmConfig>(`${qemuOn(t.node)}/${t.vmid}/config`);
    const diskGb = bootDiskGb(config);
    if (diskGb === undefined) throw refuse(`template ${t.name} (VM ${t.vmid}) has no disk`);
    const info = { vmid: Number(t.vmid), node: t.node, name: t.name ?? '', diskGb };
    if (t.node === opts.node) return info;
    if (!shared.has(t.node)) shared.set(t.node, await sharedStorages(ctx, t.node));
    const onLocal = volumeStorages(config).filter((s) => shared.get(t.node)!.get(s) !== true);
    if (onLocal.length === 0) return { ...info, target: opts.node };
    local.push(`${t.name} (VM ${t.vmid}) is on node ${t.node} with volumes on local storage ${onLocal.join(', ')}`);
  }
  throw refuse(
    `no template named ${opts.templatePrefix}* can be cloned to node ${opts.node}: ${local.join('; ')}. Put a copy of the template on ${opts.node}, or its disks on shared storage`,
  );
}

async function newestTemplate(ctx: Hypervisor): Promise<TemplateInfo> {
  const { target: _target, ...info } = await pickTemplate(ctx);
  return info;
}

/**
 * The VM once no task holds its config lock. A clone started by an earlier attempt (a worker
 * that died, a call that timed out after PVE had forked the task) is still copying: the
 * target exists, locked `clone`, and every change to it is refused until the copy ends. It is
 * waited for, not failed; a clone that fails meanwhile unlinks its target (absent here).
 */
async function unlocked(ctx: Hypervisor, vmid: number, what: string, guests?: ListedVm[], live?: Map<number, string>): Promise<VmObservation | undefined> {
  const deadline = Date.now() + ctx.opts.taskTimeoutMs;
  let delay = 250;
  for (let first = true; ; first = false) {
    const vm = await observe(ctx, vmid, first ? guests : undefined, first ? live : undefined);
    if (!vm?.lock) return vm;
    // `suspended` is a state, not a task: nothing will clear it but an operator's resume.
    if (STATE_LOCKS.has(vm.lock)) throw refuse(`${what} is locked (${vm.lock}); an operator must clear it`);
    const left = deadline - Date.now();
    if (left <= 0) throw new BackendError('proxmox', `${what} still locked (${vm.lock}) after ${ctx.opts.taskTimeoutMs} ms`);
    await new Promise((r) => setTimeout(r, Math.min(delay, left)));
    delay = Math.min(delay * 2, 2000);
  }
}

/** A VM as observed, for the apply's corrections (its node, its boot disk). */
interface VmSeen extends Observation {
  vm?: VmObservation;
}

/**
 * A workload's VM in what `read` answers of it: an ensure's waits until no task holds its lock
 * (`unlocked`), a plan's reads it as it is (`observe`). Absent: cloned from the newest template,
 * then configured; found: its config set, its disk grown, started.
 */
function vmKind(ctx: Hypervisor, read: (vmid: number) => Promise<VmObservation | undefined>): ObjectKind<VmSpec, VmSeen> {
  return {
    object: (spec) => `vm ${spec.vmid}`,
    async observe(spec) {
      const vm = await read(spec.vmid);
      if (!vm) return { exists: false, drift: [] };
      if (vm.template) throw refuse(`VM ${spec.vmid} (${spec.name}): VMID ${spec.vmid} is a template`);
      return { exists: true, drift: vmDrift(vm, spec).fields, vm };
    },
    async apply(spec, seen) {
      const what = `VM ${spec.vmid} (${spec.name})`;
      const vm = seen.vm ?? (await cloneVm(ctx, spec, what));
      await correctVm(ctx, spec, vm, vmDrift(vm, spec), what);
    },
  };
}

async function ensure(ctx: Hypervisor, spec: VmSpec, guests?: ListedVm[], live?: Map<number, string>): Promise<ObjectOutcome[]> {
  return [
    await ensureOne(
      vmKind(ctx, (vmid) => unlocked(ctx, vmid, `VM ${vmid} (${spec.name})`, guests, live)),
      spec,
    ),
  ];
}

async function cloneVm(ctx: Hypervisor, spec: VmSpec, what: string): Promise<VmObservation> {
  const tpl = await pickTemplate(ctx);
  const disk = checkDisk(spec.diskGb, tpl.diskGb);
  if (!disk.ok) throw new BackendError('proxmox', `${what}: ${disk.error} (template ${tpl.name})`, false, 400);
  // The clone runs on the template's node; a template elsewhere (on shared storage) clones onto the site's node.
  const upid = await ctx.pve
    .call('POST', `${qemuOn(tpl.node)}/${tpl.vmid}/clone`, { newid: spec.vmid, name: spec.name, full: true, storage: ctx.opts.storage, target: tpl.target })
    .catch((e: unknown) => {
      // The storage config changed since it was read: PVE's refusal, not a fault to retry.
      if (e instanceof BackendError && /VM uses local storage/.test(e.detail)) {
        throw refuse(
          `${what}: template ${tpl.name} (VM ${tpl.vmid}) on node ${tpl.node} uses local storage, so it cannot be cloned to node ${ctx.opts.node}; put a copy of the template on ${ctx.opts.node}, or its disks on shared storage (${e.detail})`,
        );
      }
      throw e;
    });
  await ctx.pve.waitTask(upid, `clone ${tpl.name} to ${what}`);
  const vm = await observe(ctx, spec.vmid);
  if (!vm) throw new BackendError('proxmox', `${what}: absent after its clone task ended`);
  return vm;
}

async function correctVm(ctx: Hypervisor, spec: VmSpec, vm: VmObservation, drift: ReturnType<typeof vmDrift>, what: string): Promise<void> {
  const qemu = qemuOn(vm.node);
  if (Object.keys(drift.set).length > 0 || drift.del) {
    const upid = await ctx.pve.call('POST', `${qemu}/${spec.vmid}/config`, { ...drift.set, delete: drift.del });
    await ctx.pve.waitTask(upid, `configure ${what}`);
  }
  if (drift.growDisk && vm.diskKey) {
    const upid = await ctx.pve.call('PUT', `${qemu}/${spec.vmid}/resize`, { disk: vm.diskKey, size: `${spec.diskGb}G` });
    await ctx.pve.waitTask(upid, `grow the disk of ${what} to ${spec.diskGb} GB`);
  }
  if (drift.start) {
    // Another ensure of the same VM (a quick repeat, a reconcile) may have started it since it
    // was read: qemu-server's "VM <id> already running" is the state wanted.
    try {
      const upid = await ctx.pve.call('POST', `${qemu}/${spec.vmid}/status/start`);
      await ctx.pve.waitTask(upid, `start ${what}`);
    } catch (e) {
      if (!(e instanceof BackendError && /VM \d+ already running/.test(e.detail))) throw e;
    }
  }
}

/**
 * The live status of every VM on the nodes that hold these: one `GET /nodes/{node}/qemu` per
 * node, which qemu-server answers from each VM's process (vmstatus), not from pvestatd's cache:
 * a reconcile's status reads, one per node instead of one per VM.
 */
async function liveStatuses(ctx: Hypervisor, guests: ListedVm[], vmids: Set<number>): Promise<Map<number, string>> {
  const live = new Map<number, string>();
  const nodes = new Set(guests.filter((g) => vmids.has(Number(g.vmid))).map((g) => g.node));
  for (const node of nodes) {
    for (const vm of await ctx.pve.get<Array<{ vmid: number | string; status?: string }>>(qemuOn(node))) {
      if (vm.status !== undefined) live.set(Number(vm.vmid), String(vm.status));
    }
  }
  return live;
}

async function reconcile(
  ctx: Hypervisor,
  range: { first: number; last: number },
  mode: ReconcileMode,
  claims: () => Promise<VmClaims>,
): Promise<ObjectOutcome[]> {
  const guests = await listVms(ctx);
  const { correct: specs, claimed } = await claims();
  const live = await liveStatuses(ctx, guests, new Set(specs.map((s) => s.vmid)));
  const outcomes: ObjectOutcome[] = [];
  for (const spec of specs) {
    if (mode === 'plan')
      outcomes.push(
        await planOne(
          vmKind(ctx, (vmid) => observe(ctx, vmid, guests, live)),
          spec,
        ),
      );
    else outcomes.push(...(await ensure(ctx, spec, guests, live)));
  }
  const registered = new Set([...claimed, ...specs.map((s) => s.vmid)]);
  const strangers = guests.filter(
    (g) => Number(g.vmid) >= range.first && Number(g.vmid) <= range.last && !registered.has(Number(g.vmid)) && !isTemplate(g.template),
  );
  for (const g of strangers) {
    // The list's name is pvestatd's, absent for a VM it has not seen yet: the config's is current.
    const name = await ctx.pve.get<VmConfig>(`${qemuOn(g.node)}/${g.vmid}/config`).then(
      (c) => (c.name === undefined ? g.name : String(c.name)),
      () => g.name,
    );
    const object = `vm ${g.vmid}${name ? ` (${name})` : ''}`;
    const gone = removes(mode, object);
    if (gone) await remove(ctx, Number(g.vmid));
    outcomes.push({ object, result: gone ? 'removed' : 'unknown' });
  }
  return outcomes;
}

async function remove(ctx: Hypervisor, vmid: number): Promise<void> {
  // A create of the same VM may start it between our stop and our destroy (PVE refuses to destroy
  // a running VM): stop it again and destroy again, a bounded number of times.
  for (let round = 1; ; round++) {
    const vm = await unlocked(ctx, vmid, `VM ${vmid}`);
    if (!vm) return;
    if (vm.template) throw refuse(`VM ${vmid} is a template; the service never removes templates`);
    const qemu = qemuOn(vm.node);
    try {
      if (vm.status !== 'stopped') {
        const upid = await ctx.pve.call('POST', `${qemu}/${vmid}/status/stop`);
        await ctx.pve.waitTask(upid, `stop VM ${vmid}`);
      }
      const upid = await ctx.pve.call('DELETE', `${qemu}/${vmid}`, { purge: true, 'destroy-unreferenced-disks': true });
      await ctx.pve.waitTask(upid, `destroy VM ${vmid}`);
      return;
    } catch (e) {
      // Gone meanwhile (another remove won the race): that is the outcome wanted.
      // Started again meanwhile ("VM <id> is running - destroy failed", before the task or in
      // it): stop and destroy again.
      const now = await observe(ctx, vmid);
      if (!now) return;
      if (round < 3 && (now.status === 'running' || (e instanceof BackendError && /is running - destroy failed/.test(e.detail)))) continue;
      throw e;
    }
  }
}

/** What differs between a VM and its spec: the config to set or delete, a disk to grow, a start, in the API's words. */
export function vmDrift(
  vm: VmObservation,
  spec: VmSpec,
): { set: Record<string, string | number>; del?: string; growDisk: boolean; start: boolean; fields: string[] } {
  const set: Record<string, string | number> = {};
  if (vm.name !== spec.name) set.name = spec.name;
  if (vm.cores !== spec.cores) set.cores = spec.cores;
  if (vm.memoryMb !== spec.memoryMb) set.memory = spec.memoryMb;
  if (vm.nicModel !== 'virtio' || vm.mac?.toLowerCase() !== spec.mac.toLowerCase() || vm.bridge !== spec.bridge) {
    set.net0 = formatNet(spec.mac, spec.bridge);
  }
  if (vm.ip !== `${spec.address}/${spec.prefixLength}` || vm.gateway !== spec.gateway)
    set.ipconfig0 = formatIpconfig(spec.address, spec.prefixLength, spec.gateway);
  if (vm.ciuser !== spec.ciuser) set.ciuser = spec.ciuser;
  const keysDiffer = !sameKeys(vm.sshKeys, spec.sshKeys);
  if (keysDiffer && spec.sshKeys.length > 0) set.sshkeys = encodeSshKeys(spec.sshKeys);
  const del = keysDiffer && spec.sshKeys.length === 0 ? 'sshkeys' : undefined;
  const growDisk = spec.diskGb !== undefined && !!vm.diskKey && (vm.diskGb ?? 0) < spec.diskGb;
  const start = vm.status !== 'running';
  const fields = [...new Set([...Object.keys(set), ...(del ? [del] : [])].map((k) => FIELD_OF[k] ?? k))];
  if (growDisk) fields.push('disk_gb');
  if (start) fields.push('power');
  return { set, ...(del ? { del } : {}), growDisk, start, fields };
}
