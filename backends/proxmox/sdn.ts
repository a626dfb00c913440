import { AsyncResource } from 'node:async_hooks';
import { onBehalfOfMany, type BackendCalls } from '../http/calls.js';
import { BackendError, outcomeOf, type ObjectOutcome } from '../../core/backend-outcome.js';
import { indexFromVnetId, indexFromVnetTag, indexFromVrfVni } from '../../core/identity.js';
import { PveApi, PveTaskError, type PveParams } from './pve-api.js';
import { memoryLockTokens, releaseSdnLock, takeSdnLock, type SdnLockTokens } from './sdn-lock.js';
import { foreignPending, foreignPendingProblem, pendingSdn, serviceZone, subnetIdOf } from './sdn-pending.js';

/**
 * The tenant's overlay network on Proxmox VE SDN: an EVPN zone named after the tenant attached
 * to the site's controller with the tenant's VRF VNI, one VNet with the tenant's VXLAN tag, and
 * one subnet with the anycast gateway. SDN edits are pending until applied, so ensure writes
 * what differs from the wanted state, applies whenever the running fabric differs from it (an
 * earlier attempt may have written but not applied), and waits for the apply task.
 * Removing the tenant's network is the operator's act, not the service's: there is no remove.
 */
export interface NetworkSpec {
  tenant: string;
  index: number;
  vrfVni: number;
  vnet: string;
  vnetTag: number;
  /** CIDR, e.g. `10.128.5.0/24`. */
  subnet: string;
  gateway: string;
}

export type SdnObject = Record<string, unknown>;

/** One SDN object as edited (`config`, pending changes included) and as running (applied). */
export interface FabricObject {
  id: string;
  config?: SdnObject;
  running?: SdnObject;
}

export interface NetworkObservation {
  zone: FabricObject;
  vnet: FabricObject;
  subnet: FabricObject;
}

/**
 * A tenant's edits written to the fabric's pending configuration, not yet applied: what `settle`
 * needs to finish the step.
 */
export interface StagedNetwork {
  /** The fabric as it was before the writes: created, corrected or in place is decided from it. */
  before: NetworkObservation;
  /** Running, but the workload node lacks the VNet's bridge: only an apply of its own reloads it. */
  reload: boolean;
  /** Something of the tenant is not running as wanted: an apply must carry it. */
  needsApply: boolean;
}

/** Runs `work` holding one of the step's registry locks; identity for a caller alone at the fabric. */
export type FabricExclusive = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * How `settle` is ordered with the other tenants: `round` runs one apply round at a time across
 * every worker, and hands it `exclusive`, which keeps the stagers out while the apply commits.
 */
export interface FabricOrder {
  round<T>(work: (exclusive: FabricExclusive) => Promise<T>): Promise<T>;
  /**
   * Resolves once no round runs, taking nothing, so its waiters go on together: true when one ran
   * as it was asked (it may have carried the caller), false when none did.
   */
  roundEnded(): Promise<boolean>;
  /** Where the SDN lock tokens the service takes are kept (the registry); the adapter's memory when absent. */
  tokens?: SdnLockTokens;
  /**
   * The tenants a run of the service holds alone right now (a create, a reconcile, a delete: the
   * registry's leases), so a gathering round can tell that no create is still on its way to the
   * fabric. A round gathers its whole bound when absent.
   */
  heldAlone?: () => Promise<string[]>;
}

const alone: FabricExclusive = (inner) => inner();
/** A caller alone at the fabric: no other tenant to order with. */
export const ALONE: FabricOrder = { round: (work) => work(alone), roundEnded: async () => false };

export interface NetworkAdapter {
  observe(spec: NetworkSpec): Promise<NetworkObservation>;
  /** `stage` then `settle`, for one caller alone at the fabric. */
  ensure(spec: NetworkSpec): Promise<ObjectOutcome[]>;
  /**
   * Writes what differs of the tenant's zone, VNet and subnet as pending edits; applies nothing.
   * `tokens`: where the SDN lock's token is kept while held (sdn-lock.ts); the adapter's memory when absent.
   * `serialize`: runs the writes (the PVE lock, the foreign-edit check, the edits, the release) in
   * the caller's order of fabric writers; the reads before them stay out of it. Identity when absent.
   * `beforeWrites`: called right before the tenant's own writes, in the caller's async context (the
   * step: stop if its attempt was cancelled); what it throws refuses this tenant's writes alone.
   */
  stage(spec: NetworkSpec, tokens?: SdnLockTokens, serialize?: FabricExclusive, beforeWrites?: () => void): Promise<StagedNetwork>;
  /**
   * Ends the step once the tenant's VNet is a bridge on the workload node: applies every pending
   * edit of the service (the tenant's and any other tenant's staged since the last apply) unless an
   * apply already carried the tenant's. The caller runs one settle with an apply at a time; the
   * apply's own writes run in `exclusive`, so no tenant stages between its lock and its commit.
   */
  settle(spec: NetworkSpec, staged: StagedNetwork, order: FabricOrder): Promise<ObjectOutcome[]>;
  /** What ensure would report, from reads alone. */
  plan(spec: NetworkSpec): Promise<ObjectOutcome[]>;
  /** Indexes carried by fabric zones (VRF VNI) or VNets (tag or `tvNN` id), with the zone each belongs to. */
  usedIndexes(): Promise<Map<number, string>>;
  /** The index the fabric carries for the zone of this name, if any. */
  zoneIndex(name: string): Promise<number | undefined>;
  /** Whether the fabric has a zone of this name, applied or still only edited. */
  hasZone(name: string): Promise<boolean>;
}

export interface ProxmoxNetworkOptions {
  apiUrl: string;
  tokenId: string;
  tokenSecret: string;
  /** The EVPN controller tenant zones attach to. */
  controller: string;
  /** The node workloads land on: a zone restricted to other nodes is corrected to include it. */
  node: string;
  /** Bound on each task but the apply. */
  taskTimeoutMs: number;
  /**
   * Bound on one SDN apply (SITE_NETWORK_APPLY_TIMEOUT): `PUT /cluster/sdn` reloads every node of
   * the cluster in turn, and the tenant's VNet must then run on the workload node. Default: `taskTimeoutMs`.
   */
  applyTimeoutMs?: number;
  /** The site's VNI bases, to read the index a zone or VNet found on the fabric carries. */
  vrfVniBase: number;
  vnetVniBase: number;
  timeoutMs?: number; /** PEM certificates to trust for the API's HTTPS (the cluster's CA); public roots when absent. */
  ca?: string;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
}

const ID_RE = /^[a-z][a-z0-9]*[a-z0-9]$/;
const same = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

/** What the adapter's functions share: the site's PVE API and options. */
interface Sdn {
  pve: PveApi;
  opts: ProxmoxNetworkOptions;
  applyTimeoutMs: number;
  /** This worker's last apply: how long it took, from its start to the VNet running, when it ended (ms), and which tenants it carried. */
  lastApply: { ms: number; endedAt: number; tenants: number; carried: string[]; pendingAfter: number };
  /** The SDN lock tokens this adapter took, for callers that keep none of their own. */
  tokens: SdnLockTokens;
  /**
   * Tenants' writes waiting for the lock, whether a batch of them is being written (`writeStaged`),
   * and how many tenants of this worker are staging (reading, then writing their edits).
   */
  staging: { waiting: Array<StagingWrite & { done: (...refused: [unknown?]) => void }>; running: boolean; inFlight: number };
}

/**
 * A round gathers before it applies, so the tenants the last apply's callers go on to create stage
 * in time to be carried: PostgreSQL's `commit_delay`, scaled to the fabric. It applies once as many
 * tenants have edits pending as the last apply carried (those callers are coming back), and no
 * later than this share of the last apply's length (at most `gatherMaxMs`) after that apply ended.
 * Counted from the last apply's end, the wait overlaps the carried tenants leaving the round, and a
 * create on an idle fabric does not wait. Where an apply takes milliseconds the wait is as short.
 * Above one apply's length: a caller that misses the round waits a whole apply and a gather more,
 * and on a slow host the callers' way back took longer than 0.8 of it (decisions.md). It also
 * applies once no tenant is still on its way (`callersComingBack`, from the registry's leases), as
 * in a fill's last round. Figures in docs/performance.md (issues 32 and 48).
 */
const ROUND = {
  gatherShare: 1.2,
  gatherMaxMs: 7_000,
  /** How often a gathering round counts the pending tenants (one PVE read each). */
  gatherPollMs: 150,
  /**
   * How long after the last apply's tenants were all let go a round still expects their callers: a
   * caller's next create holds its tenant within a request and a workflow task of its answer.
   */
  callersReturnMs: 1_000,
  /** The longest a round waits for this worker's tenants that are staging (`siblingsStaged`), and how often it looks. */
  siblingsMaxMs: 1_000,
  siblingsPollMs: 20,
} as const;

type SdnWrite = (method: 'POST' | 'PUT', path: string, params?: PveParams) => Promise<unknown>;

export function createProxmoxNetworkAdapter(opts: ProxmoxNetworkOptions): NetworkAdapter {
  const ctx: Sdn = {
    pve: new PveApi({ ...opts, product: 'proxmox' }),
    opts,
    applyTimeoutMs: opts.applyTimeoutMs ?? opts.taskTimeoutMs,
    lastApply: { ms: 0, endedAt: 0, tenants: 0, carried: [], pendingAfter: 0 },
    tokens: memoryLockTokens(),
    staging: { waiting: [], running: false, inFlight: 0 },
  };
  return {
    observe: (s) => observe(ctx, s),
    ensure: async (s) => settle(ctx, s, await stage(ctx, s, ctx.tokens, alone), ALONE),
    stage: (s, tokens, serialize, beforeWrites) => stage(ctx, s, tokens ?? ctx.tokens, serialize, beforeWrites),
    settle: (s, staged, order) => settle(ctx, s, staged, order),
    plan: (s) => plan(ctx, s),
    usedIndexes: () => usedIndexes(ctx),
    zoneIndex: (name) => zoneIndex(ctx, name),
    hasZone: (name) => hasZone(ctx, name),
  };
}

const list = (ctx: Sdn, path: string, running: boolean) => ctx.pve.get<SdnObject[]>(path, running ? { running: 1 } : {});
const byId = (items: SdnObject[], key: string, id: string) => items.find((o) => o[key] === id);

const nodesOk = (ctx: Sdn, nodes: unknown) => nodes === undefined || String(nodes).split(',').includes(ctx.opts.node);
const zoneOk = (ctx: Sdn, z: SdnObject | undefined, s: NetworkSpec) =>
  !!z && z.type === 'evpn' && same(z.controller, ctx.opts.controller) && same(z['vrf-vxlan'], s.vrfVni) && nodesOk(ctx, z.nodes);
const vnetOk = (v: SdnObject | undefined, s: NetworkSpec) => !!v && same(v.zone, s.tenant) && same(v.tag, s.vnetTag);
const subnetOk = (sub: SdnObject | undefined, s: NetworkSpec) => !!sub && same(sub.vnet, s.vnet) && same(sub.gateway, s.gateway);

function checkSpec(s: NetworkSpec): void {
  const bad = (why: string) => new BackendError('proxmox', `network spec for ${s.tenant}: ${why}`, false);
  if (!ID_RE.test(s.tenant) || s.tenant.length > 8) throw bad('zone id must be <= 8 lowercase alphanumerics');
  if (!ID_RE.test(s.vnet) || s.vnet.length > 8) throw bad('vnet id must be <= 8 lowercase alphanumerics');
  if (!/^\d+\.\d+\.\d+\.\d+\/\d+$/.test(s.subnet)) throw bad(`subnet ${s.subnet} is not a CIDR`);
}

/**
 * The global SDN lock's token (sdn-lock.ts); none on PVE releases without the lock (501). The step
 * holds the service's own fabric lock around this (activities/network/step.ts), so no live worker
 * of the service holds the PVE lock now: one held with a token the service recorded was left by a
 * worker that died before releasing it, and is released with that token. Any other is someone
 * else's: never released by the service; the step fails, to be retried.
 */
function acquireLock(ctx: Sdn, own: readonly NetworkSpec[], tokens: SdnLockTokens): Promise<string | undefined> {
  return takeSdnLock(ctx.pve, tokens, () => foreignPending(ctx, own));
}

/** The tenant's VNet as the site's node runs it (`available` once it is a bridge there). */
async function onNode(ctx: Sdn, s: NetworkSpec): Promise<{ vnet: string; status?: string; statusmsg?: string } | undefined> {
  const content = await ctx.pve.get<Array<{ vnet: string; status?: string; statusmsg?: string }>>(
    `/nodes/${encodeURIComponent(ctx.opts.node)}/sdn/zones/${encodeURIComponent(s.tenant)}/content`,
  );
  return content.find((v) => v.vnet === s.vnet);
}

/**
 * The longest pause between two looks at the VNet on the node while an apply reloads it: a GET
 * each. At 1 s a tenant learned of its bridge ~0.5 s after it came up, and every tenant carried
 * by that apply waited as long before its next step (issue 32's fill at 5 s applies).
 */
const BRIDGE_POLL_MAX_MS = 250;

async function waitForBridge(ctx: Sdn, s: NetworkSpec, deadline = Date.now() + ctx.applyTimeoutMs): Promise<void> {
  let delay = 50;
  for (;;) {
    const mine = await onNode(ctx, s);
    if (mine?.status === 'available') return;
    const last = mine ? `${mine.status ?? '?'}${mine.statusmsg ? `: ${mine.statusmsg}` : ''}` : 'not listed';
    if (mine?.status === 'error') throw new BackendError('proxmox', `vnet ${s.vnet} on node ${ctx.opts.node}: ${last}`);
    const left = deadline - Date.now();
    if (left <= 0)
      throw new BackendError(
        'proxmox',
        `vnet ${s.vnet} not running on node ${ctx.opts.node} after ${ctx.applyTimeoutMs} ms (${last}); did its network reload fail?`,
      );
    await new Promise((r) => setTimeout(r, Math.min(delay, left)));
    delay = Math.min(delay * 2, BRIDGE_POLL_MAX_MS);
  }
}

async function observe(ctx: Sdn, s: NetworkSpec): Promise<NetworkObservation> {
  const [zc, zr, vc, vr] = await Promise.all([
    list(ctx, '/cluster/sdn/zones', false),
    list(ctx, '/cluster/sdn/zones', true),
    list(ctx, '/cluster/sdn/vnets', false),
    list(ctx, '/cluster/sdn/vnets', true),
  ]);
  const vnetConfig = byId(vc, 'vnet', s.vnet);
  const subnetId = subnetIdOf(s.tenant, s.subnet);
  // Subnets are listed per VNet, which must exist in the edited config to be listed.
  const [sc, sr] = vnetConfig
    ? await Promise.all([list(ctx, `/cluster/sdn/vnets/${s.vnet}/subnets`, false), list(ctx, `/cluster/sdn/vnets/${s.vnet}/subnets`, true)])
    : [[], []];
  return {
    zone: { id: s.tenant, config: byId(zc, 'zone', s.tenant), running: byId(zr, 'zone', s.tenant) },
    vnet: { id: s.vnet, config: vnetConfig, running: byId(vr, 'vnet', s.vnet) },
    subnet: { id: subnetId, config: byId(sc, 'subnet', subnetId), running: byId(sr, 'subnet', subnetId) },
  };
}

/**
 * Reads, then writes what differs. Only the writes are serialized with the other tenants' (the
 * fabric's one lock): the reads are of this tenant's own objects, which no other tenant's run
 * writes, and an apply meanwhile only moves edits from pending to running. Serialized, the reads
 * made each of a round's stagers wait ~3 PVE calls more for the one before it (issue 48).
 */
async function stage(
  ctx: Sdn,
  s: NetworkSpec,
  tokens: SdnLockTokens,
  serialize: FabricExclusive = alone,
  beforeWrites: () => void = () => undefined,
): Promise<StagedNetwork> {
  checkSpec(s);
  ctx.staging.inFlight++;
  try {
    return await stageEdits(ctx, s, tokens, serialize, beforeWrites);
  } finally {
    ctx.staging.inFlight--;
  }
}

async function stageEdits(ctx: Sdn, s: NetworkSpec, tokens: SdnLockTokens, serialize: FabricExclusive, beforeWrites: () => void): Promise<StagedNetwork> {
  const o = await observe(ctx, s);
  const runningOk = zoneOk(ctx, o.zone.running, s) && vnetOk(o.vnet.running, s) && subnetOk(o.subnet.running, s);
  // Applied but not a bridge on the node (its reload failed or never ran): apply again, which
  // reloads every node.
  const reload = zoneOk(ctx, o.zone.running, s) && vnetOk(o.vnet.running, s) && (await onNode(ctx, s))?.status !== 'available';
  const configDiffers = !zoneOk(ctx, o.zone.config, s) || !vnetOk(o.vnet.config, s) || !subnetOk(o.subnet.config, s);
  if (configDiffers) await writeStaged(ctx, { s, o, tokens, serialize, beforeWrites });
  return { before: o, reload, needsApply: reload || !runningOk || configDiffers };
}

/** One tenant's writes waiting for the SDN lock (`writeStaged`). */
interface StagingWrite {
  s: NetworkSpec;
  o: NetworkObservation;
  tokens: SdnLockTokens;
  serialize: FabricExclusive;
  beforeWrites: () => void;
  /** Runs work in the async context of the tenant's own call (its activity, its trace span). */
  inOwnContext: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * The writes of the tenants that wait for the lock together go under one take of it: the first
 * waiting takes the lock (its `serialize`, the registry's lock across workers), then writes for
 * every tenant of this worker waiting by then; those arriving meanwhile form the next batch. One
 * by one, each of a round's eight stagers took the lock, checked for foreign edits and released
 * it: ~6 calls in a row at ~30 ms each on a real site, 1.6 s for a round before its apply (issue
 * 48). A tenant whose own writes are refused fails alone; a batch whose lock or check fails fails
 * its first tenant, and the others go on in the next batch, under their own `serialize`.
 * The batches run in the async context of whoever started draining: each tenant's hooks and writes
 * are bound to its own (its activity's cancellation, its trace), not the first tenant's.
 */
function writeStaged(ctx: Sdn, write: Omit<StagingWrite, 'inOwnContext'>): Promise<void> {
  return new Promise((resolve, reject) => {
    ctx.staging.waiting.push({
      ...write,
      serialize: AsyncResource.bind(write.serialize),
      beforeWrites: AsyncResource.bind(write.beforeWrites),
      inOwnContext: AsyncResource.bind((work) => work()),
      done: (...refused) => (refused.length === 0 ? resolve() : reject(refused[0])),
    });
    if (!ctx.staging.running) void drainStaging(ctx);
  });
}

async function drainStaging(ctx: Sdn): Promise<void> {
  const { waiting } = ctx.staging;
  ctx.staging.running = true;
  try {
    while (waiting.length > 0) {
      const lead = waiting[0]!;
      // Taken once the lock is held: who queued while the lead waited for it goes in this batch.
      let batch: typeof waiting = [];
      try {
        // The batch's lock and check on behalf of all; each tenant's own writes are admitted in its own context.
        const results = await lead.serialize(() => onBehalfOfMany(() => writePending(ctx, (batch = waiting.splice(0)), lead.tokens)));
        batch.forEach((w, i) => (results[i] ? w.done(results[i].refused) : w.done()));
      } catch (e) {
        if (batch.length === 0) waiting.splice(waiting.indexOf(lead), 1);
        else waiting.unshift(...batch.slice(1));
        lead.done(e);
      }
    }
  } finally {
    ctx.staging.running = false;
  }
}

/**
 * PUT /cluster/sdn applies every pending edit, and recent PVE holds a global SDN lock: take it
 * (keeping others' writes out), refuse when an operator's edits are staged, write each tenant's
 * objects with its token and release it without applying: the apply is `settle`'s, and may carry
 * other tenants' edits. Answers each tenant's error (undefined: written), once the lock is released:
 * a tenant told earlier could reach its apply while this batch still holds the lock.
 */
async function writePending(ctx: Sdn, batch: StagingWrite[], tokens: SdnLockTokens): Promise<Array<{ refused: unknown } | undefined>> {
  // Every tenant of the batch owns its objects, whatever they hold now: none is foreign to the others.
  const own = batch.map((w) => w.s);
  // The foreign-edit check is read beside the lock's take, not after it: an edit staged between the
  // two is still refused by the apply (applyPending), which carries nothing foreign.
  const [taken, foreign] = await Promise.allSettled([acquireLock(ctx, own, tokens), foreignPending(ctx, own)]);
  if (taken.status === 'rejected') throw taken.reason;
  const token = taken.value;
  const write: SdnWrite = (method, path, params = {}) => ctx.pve.call(method, path, { ...params, 'lock-token': token });
  const results: Array<{ refused: unknown } | undefined> = [];
  try {
    if (foreign.status === 'rejected') throw foreign.reason;
    if (foreign.value.length > 0) throw new BackendError('proxmox', foreignPendingProblem(foreign.value), false);
    // One after another, as PVE writes them (each write takes the SDN config's file lock).
    for (const { s, o, beforeWrites, inOwnContext } of batch) {
      try {
        await inOwnContext(async () => {
          beforeWrites();
          await writeZone(ctx, s, o.zone.config, write);
          await writeVnet(s, o.vnet.config, write);
          await writeSubnet(s, o.subnet, write);
        });
        results.push(undefined);
      } catch (e) {
        results.push({ refused: e });
      }
    }
  } finally {
    await releaseSdnLock(ctx.pve, tokens, token);
  }
  return results;
}

async function settle(ctx: Sdn, s: NetworkSpec, staged: StagedNetwork, order: FabricOrder): Promise<ObjectOutcome[]> {
  const outcomes = outcomesOf(ctx, s, staged.before, staged.reload);
  if (!staged.needsApply) {
    await waitForBridge(ctx, s);
    return outcomes;
  }
  // An apply that committed since this tenant staged carried its edits: only its bridge is waited
  // for (the node's reload of that apply). Looked at before the round, so tenants an apply carried
  // do not queue one by one behind the next; and again in it, for an apply that ended meanwhile.
  // A bridge that failed to come up needs an apply of its own, whatever ran.
  const carried = async () => {
    if (staged.reload || !(await runsAsWanted(ctx, s))) return undefined;
    await waitForBridge(ctx, s);
    outcomes[1] = { ...outcomes[1]!, batch: { applied: 'by another tenant' } };
    return outcomes;
  };
  // A round running now may be the one carrying this tenant: its end is waited for first, beside the
  // round's other waiters, and what it carried goes on without the round. Taking the round to find
  // out made a round's eight tenants learn it one after another (~130 ms each at a real site's
  // latency), and come back for their next tenants as far apart (issue 48).
  return (
    (await carried()) ??
    ((await order.roundEnded()) ? await carried() : undefined) ??
    order.round(async (exclusive) => {
      const already = await carried();
      if (already) return already;
      await gather(ctx, order);
      await siblingsStaged(ctx);
      const started = Date.now();
      // Once begun, the apply (its lock, its task) is every carried tenant's: followed to its end
      // even if this attempt is given up on meanwhile (`exclusive` checks it before the apply).
      const { applied, warnings } = await onBehalfOfMany(async () => {
        const applied = await exclusive(() => applyPending(ctx, s, order.tokens ?? ctx.tokens));
        // The apply only starts each node's network reload: the step is done when the workload node
        // runs the VNet as a bridge (no VM is started on a bridge that does not exist yet). A node
        // whose reload could not be started is a warning of the task (`WARNINGS: n`, one `WARN:` line
        // each): reported with the VNet, not a failure, unless it is the workload node (then the
        // VNet never becomes available there and the wait below fails).
        return { applied, warnings: await applyWarnings(ctx, s, applied.upid, applied.deadline) };
      });
      await waitForBridge(ctx, s, applied.deadline);
      // Who staged while it ran is pending already and is not one of its callers coming back.
      const pendingAfter = await pendingTenants(ctx).catch(() => 0);
      ctx.lastApply = { ms: Date.now() - started, endedAt: Date.now(), tenants: applied.tenants, carried: applied.carried, pendingAfter };
      outcomes[1] = { ...outcomes[1]!, batch: { applied: 'by this tenant', tenants: applied.tenants }, ...(warnings.length > 0 ? { warnings } : {}) };
      return outcomes;
    })
  );
}

/** The round's wait before its apply (`ROUND.gatherShare`). */
async function gather(ctx: Sdn, order: FabricOrder): Promise<void> {
  const until = ctx.lastApply.endedAt + Math.min(ROUND.gatherMaxMs, ROUND.gatherShare * ctx.lastApply.ms);
  const comingBack = callersComingBack(ctx, order);
  while (Date.now() < until) {
    // The reads only shorten the wait: one that fails ends it, and the apply says what is wrong.
    const zones = await serviceZones(ctx).catch(() => undefined);
    if (!zones) return;
    // The last apply's callers come back with their next tenants, beside those who staged while it
    // ran: counting only the callers, two groups of callers that return out of step kept applying
    // apart (16 applies of ~4 tenants a fill instead of 8-9 of ~8, issue 48).
    const pending = zones.filter((z) => z.state).length;
    if (pending >= ctx.lastApply.pendingAfter + ctx.lastApply.tenants) return;
    if (!(await comingBack(zones))) return;
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(ROUND.gatherPollMs, until - Date.now()))));
  }
}

/**
 * Whether a tenant may still be on its way to this round, from the registry's leases: true while
 * a tenant the last apply carried is still held (its caller has not had its answer), for
 * `ROUND.callersReturnMs` after the last of them was let go (time for its caller's next create to hold
 * its own tenant), and while a tenant held alone has no zone yet (a create short of its network
 * step). Once none is, the callers that are coming are all pending: the fill's last round, where
 * fewer tenants come back than the last apply carried, applied only at its gather's bound (~4 s
 * of a real site's 5 s apply, issue 48). True whenever it cannot tell.
 */
function callersComingBack(ctx: Sdn, order: FabricOrder): (zones: SdnObject[]) => Promise<boolean> {
  let letGoAt: number | undefined;
  return async (zones) => {
    const held = order.heldAlone ? await order.heldAlone().catch(() => undefined) : undefined;
    if (!held) return true;
    if (ctx.lastApply.carried.some((t) => held.includes(t))) {
      letGoAt = undefined;
      return true;
    }
    letGoAt ??= Date.now();
    if (Date.now() - letGoAt < ROUND.callersReturnMs) return true;
    const inFabric = new Set(zones.map((z) => String(z.zone)));
    return held.some((t) => !inFabric.has(t));
  };
}

/**
 * Then, at most `ROUND.siblingsMaxMs` more while other tenants of this worker are staging: they are
 * pending in a moment, and an apply now would leave them a whole apply behind (PostgreSQL's
 * `commit_siblings`). A fill's first round applied as the third of eight callers' tenants staged,
 * and the rounds stayed out of step to the end: 9 applies for 62 tenants (issue 48). A create
 * alone at the fabric does not wait.
 */
async function siblingsStaged(ctx: Sdn): Promise<void> {
  const until = Date.now() + ROUND.siblingsMaxMs;
  while (ctx.staging.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, ROUND.siblingsPollMs));
}

/** The service's tenant zones, applied or edited (`state` when an edit is pending): one read of the zones. */
async function serviceZones(ctx: Sdn): Promise<SdnObject[]> {
  const zones = await ctx.pve.get<SdnObject[]>('/cluster/sdn/zones', { pending: 1 });
  return zones.filter((z) => serviceZone(ctx, z));
}

/** How many of the service's tenant zones have edits pending. */
const pendingTenants = async (ctx: Sdn) => (await serviceZones(ctx)).filter((z) => z.state).length;

/** The tenant's zone, VNet and subnet as the fabric runs them (committed by an apply). */
async function runsAsWanted(ctx: Sdn, s: NetworkSpec): Promise<boolean> {
  const now = await observe(ctx, s);
  return zoneOk(ctx, now.zone.running, s) && vnetOk(now.vnet.running, s) && subnetOk(now.subnet.running, s);
}

/** Applies every pending edit: the apply's task, its deadline, and whose edits it carried (how many, and their names). */
async function applyPending(ctx: Sdn, s: NetworkSpec, tokens: SdnLockTokens): Promise<{ upid: unknown; deadline: number; tenants: number; carried: string[] }> {
  const token = await acquireLock(ctx, [s], tokens);
  let released = !token;
  try {
    const pending = await pendingSdn(ctx, [s]);
    if (pending.foreign.length > 0) throw new BackendError('proxmox', foreignPendingProblem(pending.foreign), false);
    const deadline = Date.now() + ctx.applyTimeoutMs;
    const upid = await ctx.pve.call<string>('PUT', '/cluster/sdn', token ? { 'lock-token': token, 'release-lock': true } : {});
    released = true;
    // The apply released it (`release-lock`).
    if (token) await tokens.released(token).catch(() => undefined);
    return { upid, deadline, tenants: Math.max(1, pending.tenants.size), carried: [...pending.tenants] };
  } finally {
    if (!released) await releaseSdnLock(ctx.pve, tokens, token);
  }
}

async function writeZone(ctx: Sdn, s: NetworkSpec, z: SdnObject | undefined, write: SdnWrite): Promise<boolean> {
  if (!z) {
    await write('POST', '/cluster/sdn/zones', { zone: s.tenant, type: 'evpn', controller: ctx.opts.controller, 'vrf-vxlan': s.vrfVni });
    return true;
  } else if (z.type !== 'evpn') {
    throw new BackendError('proxmox', `zone ${s.tenant} exists with type ${String(z.type)}, not evpn`, false);
  } else if (!zoneOk(ctx, z, s)) {
    const nodes = nodesOk(ctx, z.nodes) ? undefined : `${String(z.nodes)},${ctx.opts.node}`;
    await write('PUT', `/cluster/sdn/zones/${s.tenant}`, { controller: ctx.opts.controller, 'vrf-vxlan': s.vrfVni, nodes });
    return true;
  }
  return false;
}

async function writeVnet(s: NetworkSpec, v: SdnObject | undefined, write: SdnWrite): Promise<boolean> {
  if (!v) {
    await write('POST', '/cluster/sdn/vnets', { vnet: s.vnet, zone: s.tenant, tag: s.vnetTag });
    return true;
  } else if (!vnetOk(v, s)) {
    await write('PUT', `/cluster/sdn/vnets/${s.vnet}`, { zone: s.tenant, tag: s.vnetTag });
    return true;
  }
  return false;
}

async function writeSubnet(s: NetworkSpec, subnet: FabricObject, write: SdnWrite): Promise<boolean> {
  const sub = subnet.config;
  if (!sub) {
    await write('POST', `/cluster/sdn/vnets/${s.vnet}/subnets`, { subnet: s.subnet, type: 'subnet', gateway: s.gateway });
    return true;
  } else if (!subnetOk(sub, s)) {
    await write('PUT', `/cluster/sdn/vnets/${s.vnet}/subnets/${subnet.id}`, { gateway: s.gateway });
    return true;
  }
  return false;
}

/** The apply task's end, within the apply's bound, and what it warned of. */
async function applyWarnings(ctx: Sdn, s: NetworkSpec, upid: unknown, deadline: number): Promise<string[]> {
  let exit: string | undefined;
  try {
    exit = await ctx.pve.waitTask(upid, `apply SDN for ${s.tenant}`, { timeoutMs: Math.max(1, deadline - Date.now()) });
  } catch (e) {
    // Still reloading other nodes: the VNet on the workload node decides (waitForBridge).
    if (e instanceof PveTaskError && /still running/.test(e.detail)) return [`sdn apply: still reloading nodes after ${ctx.applyTimeoutMs} ms`];
    throw e;
  }
  if (typeof upid !== 'string' || !exit?.startsWith('WARNINGS')) return [];
  const lines = await ctx.pve.taskWarnings(upid).catch(() => []);
  return lines.length > 0 ? lines.map((l) => `sdn apply: ${l}`) : [`sdn apply: ${exit}`];
}

/**
 * What the running fabric had before a write decides created / corrected / in-place; the fields
 * say which of its two configurations differed (`config`, the edited one; `applied`, the
 * running one) and whether the node lacked the VNet's bridge.
 */
function outcomesOf(ctx: Sdn, s: NetworkSpec, o: NetworkObservation, reload: boolean): ObjectOutcome[] {
  const part = (object: string, f: FabricObject, ok: (x: Record<string, unknown> | undefined, s: NetworkSpec) => boolean, extra: string[] = []) => {
    const fields = [...(ok(f.config, s) ? [] : ['config']), ...(ok(f.running, s) ? [] : ['applied']), ...extra];
    return outcomeOf(object, !!f.running, fields.length > 0, fields);
  };
  return [
    part(`sdn zone ${s.tenant}`, o.zone, (x, spec) => zoneOk(ctx, x, spec)),
    part(`sdn vnet ${s.vnet}`, o.vnet, vnetOk, reload ? ['bridge'] : []),
    part(`sdn subnet ${o.subnet.id}`, o.subnet, subnetOk),
  ];
}

/** What ensure would report, from reads alone. */
async function plan(ctx: Sdn, s: NetworkSpec): Promise<ObjectOutcome[]> {
  checkSpec(s);
  const o = await observe(ctx, s);
  const reload = zoneOk(ctx, o.zone.running, s) && vnetOk(o.vnet.running, s) && (await onNode(ctx, s))?.status !== 'available';
  return outcomesOf(ctx, s, o, reload);
}

/** (index, zone) pairs the fabric carries, zones first, edited and running configs both. */
async function carried(ctx: Sdn): Promise<Array<[number, string]>> {
  const [zc, zr, vc, vr] = await Promise.all([
    list(ctx, '/cluster/sdn/zones', false),
    list(ctx, '/cluster/sdn/zones', true),
    list(ctx, '/cluster/sdn/vnets', false),
    list(ctx, '/cluster/sdn/vnets', true),
  ]);
  const pairs: Array<[number, string]> = [];
  const zoneType = new Map<string, string>();
  for (const z of [...zr, ...zc]) zoneType.set(String(z.zone), String(z.type));
  for (const z of [...zc, ...zr]) {
    const i = z.type === 'evpn' && z['vrf-vxlan'] !== undefined ? indexFromVrfVni(Number(z['vrf-vxlan']), ctx.opts) : undefined;
    if (i !== undefined) pairs.push([i, String(z.zone)]);
  }
  for (const v of [...vc, ...vr]) {
    const zone = String(v.zone);
    const vxlan = ['evpn', 'vxlan'].includes(zoneType.get(zone) ?? '');
    const byTag = vxlan && v.tag !== undefined ? indexFromVnetTag(Number(v.tag), ctx.opts) : undefined;
    if (byTag !== undefined) pairs.push([byTag, zone]);
    const byId = indexFromVnetId(String(v.vnet));
    if (byId !== undefined) pairs.push([byId, zone]);
  }
  return pairs;
}

async function usedIndexes(ctx: Sdn): Promise<Map<number, string>> {
  const used = new Map<number, string>();
  for (const [i, zone] of await carried(ctx)) if (!used.has(i)) used.set(i, zone);
  return used;
}

async function zoneIndex(ctx: Sdn, name: string): Promise<number | undefined> {
  return (await carried(ctx)).find(([, zone]) => zone === name)?.[0];
}

async function hasZone(ctx: Sdn, name: string): Promise<boolean> {
  const [zc, zr] = await Promise.all([list(ctx, '/cluster/sdn/zones', false), list(ctx, '/cluster/sdn/zones', true)]);
  return !!byId(zc, 'zone', name) || !!byId(zr, 'zone', name);
}
