import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Upid } from '../../../../backends/proxmox/pve-api.js';

/**
 * What the simulated cluster holds, kept in Proxmox's own shapes so tests and the lab can count
 * objects and make drift by editing it directly:
 * - SDN sections as in `/etc/pve/sdn/{zones,vnets,subnets,controllers}.cfg` (`config`), and the
 *   snapshot `PUT /cluster/sdn` commits (`running`, absent until the first apply). Edits change
 *   `config` only; the fabric runs `running`.
 * - QEMU guests as `qemu-server/<vmid>.conf` key/values plus the run state.
 * - Worker tasks by UPID.
 */
export type SdnSection = Record<string, string | number>;

export interface SdnSet {
  zones: Map<string, SdnSection>;
  vnets: Map<string, SdnSection>;
  subnets: Map<string, SdnSection>;
}

export interface SimVm {
  vmid: number;
  /** The cluster node the VM lives on; absent: the simulator's main node. */
  node?: string;
  /** The config file's keys, values as written there (strings). `template: '1'` marks a template. */
  config: Record<string, string>;
  status: 'running' | 'stopped';
  startedAt?: number;
}

/** A task as the cluster keeps it: the fields its UPID encodes (PVE's format, as the adapter parses it), and its end. */
export interface SimTask extends Upid {
  upid: string;
  status: 'running' | 'stopped';
  exitstatus?: string;
  log: string[];
}

export interface TaskTiming {
  /** How long a task stays `running`, drawn uniformly from [minMs, maxMs]. */
  minMs: number;
  maxMs: number;
  /** Task types (e.g. `qmstart`, `reloadnetworkall`) that never finish; `*` stalls every type. */
  stall: Set<string>;
  /**
   * How long tasks of a type run, in ms, overriding [minMs, maxMs]: a full clone of a real
   * multi-gigabyte template runs for minutes (e.g. `qmclone: 180_000`).
   */
  durations: Map<string, number>;
  /** Task types whose worker dies with this text (e.g. a clone whose storage is full). */
  failures: Map<string, string>;
}

/** A storage of `/etc/pve/storage.cfg`: `shared` as pve-storage reports it (set, or implied by the type). */
export interface SimStorage {
  type: string;
  shared: boolean;
}

/**
 * What pvestatd last wrote of a guest to the cluster's RRD cache (pve-manager PVE/Service/pvestatd.pm,
 * every 10 s), which `GET /cluster/resources` reads (PVE/API2Tools.pm extract_vm_stats): name,
 * status, template flag and sizes as of that round. A guest it has not seen yet has no entry.
 */
export interface SimVmStats {
  name?: string;
  status: string;
  template: number;
  maxcpu: number;
  maxmem: number;
  maxdisk: number;
  uptime: number;
}

export interface ProxmoxSimState {
  /** The node the site's workloads land on; `nodes` is the whole cluster (it included). */
  node: string;
  nodes: Set<string>;
  storage: string;
  /** Every storage of the cluster by id (`storage` among them). */
  storages: Map<string, SimStorage>;
  /**
   * The status cache `GET /cluster/resources` serves: taken anew (every guest) once `intervalMs`
   * has passed since the last round, so what it says is up to `intervalMs` old.
   */
  stats: { intervalMs: number; at: number; vms: Map<number, SimVmStats> };
  /** Bridges that exist on the node besides applied SDN VNets (a VM can only start on one). */
  bridges: Set<string>;
  sdn: {
    /** controllers.cfg as edited, and as the last apply committed it. */
    controllers: Map<string, SdnSection>;
    controllersRunning: Map<string, SdnSection>;
    /**
     * PVE 9 fabrics (fabrics.cfg): fabrics by id and their nodes by `<fabric>_<node>`, as edited
     * and as running; an operator's staged edit is a difference between the two.
     */
    fabrics: { config: Map<string, SdnSection>; running: Map<string, SdnSection> };
    fabricNodes: { config: Map<string, SdnSection>; running: Map<string, SdnSection> };
    /** Nodes the apply cannot reach: `reloadnetworkall` warns for each and never reloads it. */
    unreachable: Set<string>;
    config: SdnSet;
    running?: SdnSet & { version: number };
    /** What each node's network runs: the running set as of its last successful reload. */
    applied: Map<string, SdnSet & { version: number }>;
    /** The global SDN lock's token while one is held (pve-network create_global_lock). */
    lockToken?: string;
    /** How many times the global lock was granted: what a test counts, not something PVE reports. */
    lockTakes: number;
  };
  vms: Map<number, SimVm>;
  tasks: Map<string, SimTask>;
  taskTiming: TaskTiming;
  /** The API token's ACL, path to privileges (access.ts); absent: every privilege everywhere. */
  privileges?: Record<string, string[]>;
}

export interface TemplateSeed {
  vmid: number;
  name: string;
  diskGb: number;
  /** The node it lives on; absent: the site's node. */
  node?: string;
  /** The storage of its disks; absent: the site's storage. */
  storage?: string;
}

export function emptySdnSet(): SdnSet {
  return { zones: new Map(), vnets: new Map(), subnets: new Map() };
}

export function cloneSdnSet(s: SdnSet): SdnSet {
  const copy = (m: Map<string, SdnSection>) => new Map([...m].map(([k, v]) => [k, { ...v }]));
  return { zones: copy(s.zones), vnets: copy(s.vnets), subnets: copy(s.subnets) };
}

/** `commit_config`: the edited configuration becomes the running one. */
export function commitSdn(state: ProxmoxSimState): void {
  const version = (state.sdn.running?.version ?? 0) + 1;
  state.sdn.running = { ...cloneSdnSet(state.sdn.config), version };
  const copy = (m: Map<string, SdnSection>) => new Map([...m].map(([k, v]) => [k, { ...v }]));
  state.sdn.controllersRunning = copy(state.sdn.controllers);
  state.sdn.fabrics.running = copy(state.sdn.fabrics.config);
  state.sdn.fabricNodes.running = copy(state.sdn.fabricNodes.config);
}

/**
 * `has_pending_changes`: the edited zones, VNets, subnets or controllers differ from the running
 * ones. Fabrics are not counted (pve-network reads only the files `commit_config` writes here).
 */
export function hasPendingChanges(state: ProxmoxSimState): boolean {
  const running = state.sdn.running ?? emptySdnSet();
  const key = (m: Map<string, SdnSection>) =>
    JSON.stringify(
      [...m]
        .map(([k, v]) => [
          k,
          Object.entries(v)
            .map(([a, b]) => [a, String(b)])
            .sort(),
        ])
        .sort(),
    );
  const { controllers, controllersRunning } = state.sdn;
  return (
    (['zones', 'vnets', 'subnets'] as const).some((kind) => key(running[kind]) !== key(state.sdn.config[kind])) || key(controllers) !== key(controllersRunning)
  );
}

/** Digest of a section config file, as the API returns it beside each object. */
export function sdnDigest(m: Map<string, SdnSection>): string {
  return createHash('sha1')
    .update(JSON.stringify([...m].sort()))
    .digest('hex');
}

export function configDigest(config: Record<string, string>): string {
  const { digest: _ignored, ...rest } = config;
  return createHash('sha1')
    .update(JSON.stringify(Object.entries(rest).sort()))
    .digest('hex');
}

export function nodeOf(state: ProxmoxSimState, vm: SimVm): string {
  return vm.node ?? state.node;
}

/** PVE 8's default MAC prefix for generated guest NICs. */
export function randomMac(): string {
  const b = randomBytes(3);
  return ['BC', '24', '11', ...[...b].map((x) => x.toString(16).toUpperCase().padStart(2, '0'))].join(':');
}

export const DISK_KEY = /^(scsi|virtio|sata|ide)\d+$/;

/** Size of a drive string's `size=` option, in bytes (PVE writes K/M/G/T suffixes or plain bytes). */
export function driveSizeBytes(drive: string): number | undefined {
  const m = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT])?(?:,|$)/.exec(drive);
  if (!m) return undefined;
  const unit = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }[m[2] as 'K'] ?? 1;
  return Math.round(Number(m[1]) * unit);
}

/** PVE's `format_size`: the largest unit the size is a whole multiple of. */
export function formatSize(bytes: number): string {
  for (const [unit, f] of [
    ['T', 2 ** 40],
    ['G', 2 ** 30],
    ['M', 2 ** 20],
    ['K', 2 ** 10],
  ] as const) {
    if (bytes % f === 0) return `${bytes / f}${unit}`;
  }
  return String(bytes);
}

/** The first disk in the boot order (or the first disk key), which is what templates grow. */
export function bootDisk(config: Record<string, string>): string | undefined {
  const order = /order=([^,]+)/.exec(config.boot ?? '')?.[1]?.split(';') ?? [];
  const disks = Object.keys(config).filter((k) => DISK_KEY.test(k) && !/media=cdrom/.test(config[k] ?? ''));
  return order.find((k) => disks.includes(k)) ?? disks.sort()[0];
}

/** The boot disk's size in GiB (fractional when not whole), for tests and the lab. */
export function vmDiskGb(vm: SimVm): number | undefined {
  const key = bootDisk(vm.config);
  const bytes = key ? driveSizeBytes(vm.config[key] ?? '') : undefined;
  return bytes === undefined ? undefined : bytes / 2 ** 30;
}

export function templateConfig(t: TemplateSeed, storage: string): Record<string, string> {
  const config: Record<string, string> = {
    name: t.name,
    template: '1',
    cores: '2',
    sockets: '1',
    memory: '2048',
    ostype: 'l26',
    agent: '1',
    scsihw: 'virtio-scsi-single',
    boot: 'order=scsi0',
    scsi0: `${storage}:base-${t.vmid}-disk-0,iothread=1,size=${formatSize(t.diskGb * 2 ** 30)}`,
    ide2: `${storage}:vm-${t.vmid}-cloudinit,media=cdrom`,
    net0: `virtio=${randomMac()},bridge=vmbr0`,
    serial0: 'socket',
    vga: 'serial0',
    smbios1: `uuid=${randomUUID()}`,
    vmgenid: randomUUID(),
  };
  config.digest = configDigest(config);
  return config;
}

export function createState(opts: {
  node: string;
  storage: string;
  templates: TemplateSeed[];
  controllers: string[];
  bridges: string[];
  taskMs: [number, number];
  taskDurations?: Record<string, number>;
  otherNodes?: string[];
  storages?: Record<string, SimStorage>;
  statsIntervalMs?: number;
}): ProxmoxSimState {
  const vms = new Map<number, SimVm>();
  for (const t of opts.templates) {
    vms.set(t.vmid, {
      vmid: t.vmid,
      ...(t.node && t.node !== opts.node ? { node: t.node } : {}),
      config: templateConfig(t, t.storage ?? opts.storage),
      status: 'stopped',
    });
  }
  const storages = new Map<string, SimStorage>(Object.entries(opts.storages ?? {}));
  if (!storages.has(opts.storage)) storages.set(opts.storage, { type: 'lvmthin', shared: false });
  const controllers = new Map<string, SdnSection>(opts.controllers.map((id) => [id, { type: 'evpn', asn: 65000, peers: '10.0.0.1,10.0.0.2' }]));
  return {
    node: opts.node,
    nodes: new Set([opts.node, ...(opts.otherNodes ?? [])]),
    storage: opts.storage,
    storages,
    stats: { intervalMs: opts.statsIntervalMs ?? 10_000, at: 0, vms: new Map() },
    bridges: new Set(opts.bridges),
    sdn: {
      controllers,
      controllersRunning: new Map([...controllers].map(([k, v]) => [k, { ...v }])),
      fabrics: { config: new Map(), running: new Map() },
      fabricNodes: { config: new Map(), running: new Map() },
      unreachable: new Set(),
      config: emptySdnSet(),
      applied: new Map(),
      lockTakes: 0,
    },
    vms,
    tasks: new Map(),
    taskTiming: {
      minMs: opts.taskMs[0],
      maxMs: opts.taskMs[1],
      stall: new Set(),
      durations: new Map(Object.entries(opts.taskDurations ?? {})),
      failures: new Map(),
    },
  };
}

/** pvestatd's round: every guest's name, status, template flag and sizes as they are now. */
export function vmStatsNow(vm: SimVm): SimVmStats {
  return {
    ...(vm.config.name !== undefined ? { name: vm.config.name } : {}),
    status: vm.status,
    template: vm.config.template === '1' ? 1 : 0,
    maxcpu: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
    maxmem: Number(/\d+/.exec(vm.config.memory ?? '512')?.[0]) * 2 ** 20,
    maxdisk: (vmDiskGb(vm) ?? 0) * 2 ** 30,
    uptime: vm.startedAt ? Math.floor((Date.now() - vm.startedAt) / 1000) : 0,
  };
}

/** The status cache as `GET /cluster/resources` reads it now: a new round once the last is `intervalMs` old. */
export function statsCache(state: ProxmoxSimState): Map<number, SimVmStats> {
  const now = Date.now();
  if (now - state.stats.at >= state.stats.intervalMs) {
    state.stats.vms = new Map([...state.vms.values()].map((vm) => [vm.vmid, vmStatsNow(vm)]));
    state.stats.at = now;
  }
  return state.stats.vms;
}

export interface RemovedNetwork {
  zone: boolean;
  vnets: string[];
  subnets: string[];
}

/**
 * The operator removing a tenant's fabric network, as they would in the GUI: delete the
 * subnets, the VNets and the EVPN zone named after the tenant, then apply. The service never
 * does this itself; the lab and tests call it to reach "the fabric no longer has the zone".
 */
export function removeTenantNetwork(state: ProxmoxSimState, name: string): RemovedNetwork {
  const cfg = state.sdn.config;
  const vnets = [...cfg.vnets].filter(([, v]) => v.zone === name).map(([id]) => id);
  const subnets = [...cfg.subnets].filter(([, s]) => vnets.includes(String(s.vnet))).map(([id]) => id);
  for (const id of subnets) cfg.subnets.delete(id);
  for (const id of vnets) cfg.vnets.delete(id);
  const zone = cfg.zones.delete(name);
  commitSdn(state);
  // The operator's apply reloads every node.
  for (const node of state.nodes) state.sdn.applied.set(node, { ...cloneSdnSet(state.sdn.running!), version: state.sdn.running!.version });
  return { zone, vnets, subnets };
}

/** An operator migrating a VM: its config moves to the other node's directory, its VMID stays. */
export function migrateVm(state: ProxmoxSimState, vmid: number, node: string): void {
  const vm = state.vms.get(vmid);
  if (!vm) throw new Error(`no VM ${vmid}`);
  if (!state.nodes.has(node)) throw new Error(`no node ${node}`);
  vm.node = node;
}
