/**
 * Proxmox VE API simulator: the SDN (EVPN zones, VNets, subnets, apply) and QEMU (clone,
 * config, resize, power, destroy, tasks) subset the network and hypervisor adapters use,
 * under `/api2/json`.
 *
 * Followed:
 * - pve-http-server (PVE/APIServer/AnyEvent.pm, Formatter/Standard.pm): JSON bodies
 *   `{"data": ...}`; on failure `{"data": null, "message": "...\n"}` plus `"errors": {param:
 *   reason}` for parameter exceptions (400 "Parameter verification failed."), the message's
 *   first line as the HTTP reason phrase; a 401 carries only the reason phrase. With
 *   `legacyErrors`, bodies carry no `message` (older releases): the reason phrase is all. Bodies are
 *   form-encoded or JSON (`application/json`), query parameters merged over them.
 * - pve-access-control (AccessControl.pm verify_token): `Authorization:
 *   PVEAPIToken=USER@REALM!TOKENID=SECRET`; refusals "No ticket", "no such token ...",
 *   "invalid token value!".
 * - pve-network (API2/Network/SDN.pm, SDN/{Zones,Vnets,Subnets}.pm, Network/SDN.pm
 *   pending_config/commit_config, Zones/EvpnPlugin.pm, VnetPlugin.pm, SubnetPlugin.pm):
 *   writes go to the edited config; `?running=1` / `?pending=1` views; `PUT /cluster/sdn`
 *   commits and returns a `reloadnetworkall` UPID, whose task only starts one
 *   `srvreload` task per node (a node's VNet bridges exist once its own reload ran; until then
 *   `/nodes/{node}/sdn/zones/{zone}/content` says `pending`, Zones.pm status); the global lock
 *   (`POST/DELETE /cluster/sdn/lock`, `lock-token` on writes and on the apply, "invalid lock
 *   token provided!" also for a second lock while one is held, "configuration has pending changes"
 *   without `allow-pending`; `POST /cluster/sdn/rollback`), all PVE 9 only (`release`: 8 serves
 *   none of them, nor fabrics; release.ts); subnet ids `<zone>-<network>-<mask>`; id
 *   rules (<= 8 chars), the EVPN controller/VRF-VNI and VXLAN-tag uniqueness checks, and the
 *   "<op> sdn <kind> object failed: ..." wrapping of errors raised under the SDN lock;
 *   `reloadnetworkall` `warn`s for a node it cannot reload (`state.sdn.unreachable`: a `WARN:` log
 *   line, exit `WARNINGS: <n>`, that node keeps its old network); controllers (Controllers.pm) and
 *   PVE 9 fabrics (Fabrics.pm list_all, `/cluster/sdn/fabrics/all`) with `pending=1`/`running=1`
 *   views, staged edits of either counted as pending changes and committed by the apply.
 * - qemu-server (API2/Qemu.pm, PVE 8): clone (`qmclone`, linked only from templates,
 *   `storage` only for full clones; the target's config is the temporary file `lock: clone`
 *   until the disks are copied, and a failed clone unlinks it and dies "clone failed: ..."), POST config
 *   (`qmconfig` task) vs PUT config (synchronous), `sshkeys` in `urlencoded` format, resize
 *   (`resize` task; "shrinking disks is not supported" fails it), start/stop/shutdown
 *   (`qmstart`/`qmstop`/`qmshutdown`), destroy (`qmdestroy`, refused while running: "VM <id>
 *   is running - destroy failed"), a clone with `target` (not the local node) of a VM with a
 *   volume on a storage without `shared` refused before any task, 500 "can't clone VM to node
 *   '<target>' (VM uses local storage)" (clone_vm, check_storage_access_clone); start of a running
 *   VM fails its task "VM <id> already running"; unknown guest: 500 "Configuration file
 *   'nodes/<node>/qemu-server/<vmid>.conf' does not exist".
 * - pve-access-control (API2/AccessControl.pm permissions, RPCEnvironment.pm check): the token's
 *   ACL (`privileges`), `GET /access/permissions`, and 403 "Permission check failed (/sdn, <priv>)"
 *   on the SDN routes (access.ts).
 * - pve-storage (API2/Storage/Config.pm read, API2/Storage/Status.pm index): `GET
 *   /storage/{storage}` and `GET /nodes/{node}/storage` with the `shared` flag.
 * - pve-common (Tools.pm upid_encode): `UPID:node:PID:PSTART:STARTTIME:type:id:user:`, hex
 *   fields 8 upper-case digits; API2/Tasks.pm status `{status: running|stopped, exitstatus}`.
 * - pve-manager (API2/Cluster.pm resources): `GET /cluster/resources?type=vm` lists every guest
 *   of the cluster as `{id: "qemu/<vmid>", type: "qemu", node, vmid, name, status, template}`:
 *   membership and node current, the rest pvestatd's cache (API2Tools.pm extract_vm_stats), up to
 *   one round old (`statsIntervalMs`, 10 s by default as on a real node), a guest it has not seen
 *   `status: "unknown"` with no name;
 *   a node's own `/nodes/{node}/qemu/...` knows only the guests whose config is on that node.
 * Lab assumptions: the site's node plus `otherNodes` (VMs get there by clone `target` or the
 *   lab's migrate); the storage named in the options (local, `lvmthin`) plus `storages`, every
 *   one on every node; no QEMU pending
 * section (GET config shows pending values applied, PVE's default view); tasks end after a
 * short random delay; 401s are not delayed unless `authFailureDelayMs` is set; a VM starts
 * only on `vmbr0` (or the `bridges` option) or an applied VNet.
 *
 * Lab-only routes (no real PVE serves `/__lab`): the shared fault routes, plus
 * `POST /__lab/proxmox/tasks {stall: [types] | "*", min_ms, max_ms}` and
 * `DELETE /__lab/proxmox/tasks` (release stalled tasks), and
 * `POST /__lab/proxmox/remove-tenant-network {name}` (see removeTenantNetwork), and
 *   `POST /__lab/proxmox/migrate {vmid, node}` (an operator's migration).
 */
import { Hono } from 'hono';
import { withFaults, type Faults } from '../faults.js';
import { tokenAuth } from './auth.js';
import { died, failure, PveError } from './envelope.js';
import { mountClusterRoutes } from './cluster.js';
import { mountQemuRoutes } from './qemu.js';
import { mountSdnRoutes } from './sdn.js';
import { createState, migrateVm, removeTenantNetwork, type ProxmoxSimState, type RemovedNetwork, type TemplateSeed } from './state.js';
import { mountTaskRoutes, TaskRunner } from './tasks.js';
import { RELEASES, type PveRelease } from './release.js';
import { mountAccessRoutes } from './access.js';

export * from './state.js';

export interface ProxmoxSimulatorOptions {
  /** `USER@REALM!TOKENID`. */
  tokenId: string;
  tokenSecret: string;
  node?: string;
  storage?: string;
  templates?: TemplateSeed[];
  /** EVPN controllers that exist (already applied). */
  controllers?: string[];
  /** Non-SDN bridges on the node. */
  bridges?: string[];
  /** How long a task stays running, [min, max] ms; default [0, 20]. */
  taskMs?: [number, number];
  /** Other nodes of the cluster (VMs can be cloned or migrated there). */
  otherNodes?: string[];
  /** Fixed durations per task type in ms, e.g. `{ qmclone: 180_000 }` for a real full clone. */
  taskDurations?: Record<string, number>;
  authFailureDelayMs?: number;
  /** Storages of the cluster besides `storage` (a local `lvmthin` one), e.g. `{ ceph: { type: 'rbd', shared: true } }`. */
  storages?: Record<string, { type: string; shared: boolean }>;
  /**
   * How old `GET /cluster/resources`'s guest status may be: pvestatd's round, 10 s on a real
   * node (the default); tests set it small.
   */
  statsIntervalMs?: number;
  /** Answer failures as older PVE releases did: the error text in the reason phrase only. */
  legacyErrors?: boolean;
  /**
   * The major release served (default 9): 8 has no global SDN lock, no rollback and no fabrics
   * (501 there, `lock-token` refused as an unknown parameter); `/version` names it.
   */
  release?: PveRelease;
  /** The token's ACL, path to privileges (access.ts); absent: every privilege. `state.privileges` changes it. */
  privileges?: Record<string, string[]>;
}

export interface ProxmoxSimulator {
  app: Hono;
  state: ProxmoxSimState;
  faults: Faults;
  /**
   * The operator removing a tenant's fabric network: deletes the subnets and VNets of zone
   * `name` and the zone, then applies (the service never removes it itself).
   */
  removeTenantNetwork(name: string): RemovedNetwork;
  /** Run tasks whose types are no longer in `state.taskTiming.stall`. */
  releaseTasks(): void;
  /** An operator's migration of a VM to another node of the cluster (its VMID stays). */
  migrate(vmid: number, node: string): void;
  /** pvestatd's next round now: `GET /cluster/resources` then says what every guest is. */
  pvestatd(): void;
}

export const DEFAULT_TEMPLATES: TemplateSeed[] = [{ vmid: 9000, name: 'tmpl-debian-12', diskGb: 8 }];

export function createProxmoxSimulator(opts: ProxmoxSimulatorOptions): ProxmoxSimulator {
  const app = new Hono();
  const faults = withFaults(app);
  const state = createState({
    node: opts.node ?? 'pve1',
    storage: opts.storage ?? 'local-lvm',
    templates: opts.templates ?? DEFAULT_TEMPLATES,
    controllers: opts.controllers ?? ['evpnctl'],
    bridges: opts.bridges ?? ['vmbr0'],
    taskMs: opts.taskMs ?? [0, 20],
    taskDurations: opts.taskDurations,
    otherNodes: opts.otherNodes,
    storages: opts.storages,
    statsIntervalMs: opts.statsIntervalMs,
  });
  if (opts.privileges) state.privileges = opts.privileges;
  const tasks = new TaskRunner(state);

  app.post('/__lab/proxmox/tasks', async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as {
      stall?: string[] | string;
      min_ms?: number;
      max_ms?: number;
      durations?: Record<string, number>;
      failures?: Record<string, string>;
    };
    const t = state.taskTiming;
    const stall = b.stall === undefined ? [] : Array.isArray(b.stall) ? b.stall : [b.stall];
    for (const type of stall) t.stall.add(type);
    if (typeof b.min_ms === 'number') t.minMs = b.min_ms;
    if (typeof b.max_ms === 'number') t.maxMs = b.max_ms;
    for (const [type, ms] of Object.entries(b.durations ?? {})) if (typeof ms === 'number') t.durations.set(type, ms);
    for (const [type, text] of Object.entries(b.failures ?? {})) if (typeof text === 'string') t.failures.set(type, text);
    return c.json({
      stall: [...t.stall],
      min_ms: t.minMs,
      max_ms: t.maxMs,
      durations: Object.fromEntries(t.durations),
      failures: Object.fromEntries(t.failures),
    });
  });
  app.delete('/__lab/proxmox/tasks', (c) => {
    state.taskTiming.stall.clear();
    state.taskTiming.durations.clear();
    state.taskTiming.failures.clear();
    tasks.release();
    return c.json({ ok: true });
  });
  app.post('/__lab/proxmox/migrate', async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as { vmid?: number; node?: string };
    if (typeof b.vmid !== 'number' || typeof b.node !== 'string') return c.json({ error: 'vmid and node required' }, 400);
    migrateVm(state, b.vmid, b.node);
    return c.json({ ok: true });
  });
  app.post('/__lab/proxmox/remove-tenant-network', async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as { name?: string };
    if (typeof b.name !== 'string') return c.json({ error: 'name required' }, 400);
    return c.json(removeTenantNetwork(state, b.name));
  });

  const api = new Hono();
  api.use('*', tokenAuth({ tokenId: opts.tokenId, tokenSecret: opts.tokenSecret, delayMs: opts.authFailureDelayMs }));
  const checkNode = (node: string) => {
    if (!state.nodes.has(node)) throw died(`hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`);
  };
  const features = RELEASES[opts.release ?? 9];
  api.get('/version', (c) => c.json({ data: { version: features.version, release: features.release, repoid: 'sim00000' } }));
  mountAccessRoutes(api, state);
  mountClusterRoutes(api, state);
  mountSdnRoutes(api, state, tasks, opts.tokenId, features);
  mountQemuRoutes(api, state, tasks, opts.tokenId, checkNode);
  mountTaskRoutes(api, state, checkNode);
  app.route('/api2/json', api);

  const legacy = opts.legacyErrors ?? false;
  app.notFound((c) => failure(c, new PveError(501, `Method '${c.req.method} ${c.req.path.replace(/^\/api2\/json/, '')}' not implemented`), legacy));
  app.onError((e, c) => failure(c, e instanceof PveError ? e : died(e.message), legacy));

  return {
    app,
    state,
    faults,
    removeTenantNetwork: (name) => removeTenantNetwork(state, name),
    releaseTasks: () => tasks.release(),
    migrate: (vmid, node) => migrateVm(state, vmid, node),
    pvestatd: () => void (state.stats.at = 0),
  };
}
