import { absoluteName, ptrName } from '../../backends/powerdns/names.js';
import { outcomeOf, type ObjectOutcome } from '../../core/backend-outcome.js';
import type { RecordSpec } from '../../backends/powerdns/powerdns.js';
import type { ActivityDeps } from '../deps.js';
import { deriveIdentity } from '../../core/identity.js';
import { listRecords, type RecordRow } from '../../db/queries/records.js';
import { listWorkloads, type WorkloadRow } from '../../db/queries/workloads.js';
import { ptrAction, ptrLabel, ptrOwner } from './ptr.js';
import { leftAlone, mayCorrect, type Life } from '../../core/object-life.js';
import { objectPath } from '../../contracts/ids.js';
import { livesOf, type LifeOf } from '../object-lives.js';
import { Mutex } from 'async-mutex';
import type { Refusal } from '../../core/refusal.js';
import { getTenantRow } from '../../db/queries/tenants.js';

/**
 * The names the service publishes for a tenant: `<workload>.<zone>` and `<record>.<zone>` (A),
 * and the PTRs of the subnet addresses they point at. Each write is one rrset through the DNS
 * API, so the names a tenant publishes itself with its update key are never touched.
 */
type Deps = Pick<ActivityDeps, 'site' | 'db' | 'ports'>;

/** A tenant whose names (its workloads', its records') may be published: registered and ready. */
export async function tenantForPublishing(deps: ActivityDeps, tenant: string): Promise<{ index: number } | Refusal> {
  const row = await getTenantRow(deps.db, tenant);
  if (!row) return refused('not_found', 'tenant not found');
  if (row.status === 'deleting') return refused('conflict', 'the tenant is being deleted');
  if (row.status !== 'ready') return refused('conflict', 'the tenant is not ready yet; repeat its create first');
  return { index: row.index };
}

const refused = (error: Refusal['error'], message: string): Refusal => ({ kind: 'refused', error, message });

/**
 * One DNS write sequence at a time per DNS adapter (so per worker). A sequence reads the zone,
 * decides and writes; two interleaved would undo each other's PTR decisions, and PowerDNS on
 * SQLite (the lab's) answers 500 to concurrent writes. Keyed by the adapter, not global.
 */
const writers = new WeakMap<object, Mutex>();

export function withDnsWrites<T>(deps: Deps, work: () => Promise<T>): Promise<T> {
  const key = deps.ports.dns as object;
  let lock = writers.get(key);
  if (!lock) writers.set(key, (lock = new Mutex()));
  return lock.runExclusive(work);
}

const IN_ADDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.in-addr\.arpa\.?$/i;

function zonesOf(deps: Deps, tenant: string, index: number) {
  const t = deriveIdentity(deps.site, tenant, index);
  return { zone: t.zone, reverseZone: t.reverseZone };
}

/** `<label>.<zone>` points at `address` (A). */
export async function publishName(deps: Deps, tenant: string, index: number, label: string, address: string): Promise<ObjectOutcome> {
  const { zone } = zonesOf(deps, tenant, index);
  return deps.ports.dns.ensureRecord({ zone, name: absoluteName(`${label}.${zone}`), type: 'A', content: address });
}

export async function unpublishName(deps: Deps, tenant: string, index: number, label: string): Promise<void> {
  const { zone } = zonesOf(deps, tenant, index);
  await deps.ports.dns.removeRecord({ zone, name: absoluteName(`${label}.${zone}`), type: 'A' });
}

/** Whether `<label>.<zone>` is free of address records (the tenant may have published it itself). */
export async function nameIsFree(deps: Deps, tenant: string, index: number, label: string): Promise<boolean> {
  const { zone } = zonesOf(deps, tenant, index);
  const fqdn = absoluteName(`${label}.${zone}`);
  const existing = await deps.ports.dns.listRecords(zone);
  return !existing.some((r) => ['A', 'AAAA', 'CNAME'].includes(r.type) && sameName(r.name, fqdn));
}

/**
 * Brings every PTR of the tenant's reverse zone in line with the registry: each subnet address
 * a workload or record points at names its owner (ptr.ts); a PTR left naming a service name that
 * no longer owns its address is moved or removed; PTRs the tenant wrote itself stay. `excluding`
 * is a name on its way out (its registry row goes after its names). The PTR of an address that a
 * name another run holds, or left unfinished, owns or is named by is that name's (core/object-life.ts):
 * reported, never written. `own`: the calling run's own name, which it writes; `left`: those names,
 * when the caller has read them (a reconcile). A `plan` reads and reports, and writes nothing.
 */
export async function syncPtrs(
  deps: Deps,
  tenant: string,
  index: number,
  excluding?: { kind: 'workload' | 'record'; name: string },
  opts: { plan?: boolean; left?: ReadonlyMap<string, Life>; own?: string } = {},
): Promise<ObjectOutcome[]> {
  const { zone, reverseZone } = zonesOf(deps, tenant, index);
  const lives = opts.left ? undefined : await livesOf(deps, tenant);
  const [workloads, records, reverse] = await Promise.all([
    listWorkloads(deps.db, tenant),
    listRecords(deps.db, tenant),
    deps.ports.dns.listRecords(reverseZone),
  ]);
  const left = opts.left ?? notSettled(namedLives(lives!, tenant, workloads, records), opts.own);
  const names = {
    workloads: workloads.map((w) => ({ name: w.name, address: w.address, createdAt: w.createdAt })),
    records: records.filter((r) => r.kind === 'subnet').map((r) => ({ name: r.name, address: r.address, createdAt: r.createdAt })),
  };
  const serviceNames = new Set([...workloads.map((w) => w.name), ...records.map((r) => r.name)]);
  const current = new Map<string, string>();
  for (const r of reverse) {
    const m = r.type === 'PTR' ? IN_ADDR.exec(r.name) : null;
    if (m) current.set(`${m[4]}.${m[3]}.${m[2]}.${m[1]}`, r.content);
  }
  const addresses = new Set([...current.keys(), ...names.workloads.map((w) => w.address), ...names.records.map((r) => r.address)]);
  const leftOf = (name: string | undefined) => (name === undefined ? undefined : left.get(name));
  const outcomes: ObjectOutcome[] = [];
  for (const address of [...addresses].sort()) {
    const owner = ptrOwner(address, names, excluding);
    const now = current.get(address);
    const holder = leftOf(owner) ?? leftOf(now === undefined ? undefined : ptrLabel(now, zone));
    if (holder) {
      outcomes.push(leftAlone(`record ${ptrName(address)} PTR`, holder)!);
      continue;
    }
    const action = ptrAction(now, owner, zone, serviceNames);
    if (action.kind === 'set') {
      const content = absoluteName(`${action.owner}.${zone}`);
      if (now !== undefined && sameName(now, content)) {
        outcomes.push({ object: `record ${ptrName(address)} PTR`, result: 'in-place' });
        continue;
      }
      if (opts.plan) outcomes.push(outcomeOf(`record ${ptrName(address)} PTR`, now !== undefined, true, now !== undefined ? ['content'] : []));
      else outcomes.push(await deps.ports.dns.ensureRecord({ zone: reverseZone, name: ptrName(address), type: 'PTR', content }));
    } else if (action.kind === 'remove' && !opts.plan) {
      await deps.ports.dns.removeRecord({ zone: reverseZone, name: ptrName(address), type: 'PTR' });
    }
  }
  return outcomes;
}

/**
 * Re-publishes every name the service holds for a tenant (reconcile): the A of each settled
 * workload and record from one read of the zone (only what differs is written), then the PTRs. A
 * zone recreated by the dns step gets its names back. A name a run holds (a workload's create
 * parked after its dns step failed, a record's put in flight) is `in-flight`, one left unfinished
 * `unfinished`: neither its A nor its PTR is written, for that run or the repeat of its create to
 * write. A `plan` reads and reports the same, and writes nothing.
 */
export async function republishNames(deps: Deps, tenant: string, index: number, plan = false): Promise<ObjectOutcome[]> {
  const lives = await livesOf(deps, tenant);
  const [workloads, records] = await Promise.all([listWorkloads(deps.db, tenant), listRecords(deps.db, tenant)]);
  if (workloads.length + records.length === 0) return [];
  const { zone } = zonesOf(deps, tenant, index);
  const lifeOfName = namedLives(lives, tenant, workloads, records);
  const named = [...workloads, ...records].map((n) => ({ name: n.name, address: n.address, life: lifeOfName.get(n.name)! }));
  const specOf = (n: { name: string; address: string }): RecordSpec => ({ zone, name: absoluteName(`${n.name}.${zone}`), type: 'A', content: n.address });
  const left = notSettled(lifeOfName);
  const republish = async () => {
    const planned = await deps.ports.dns.planRecords(zone, named.map(specOf));
    const outcomes: ObjectOutcome[] = [];
    for (const [i, n] of named.entries()) {
      const o = planned[i]!;
      if (left.has(n.name)) outcomes.push(leftAlone(o.object, n.life)!);
      else outcomes.push(plan || o.result === 'in-place' ? o : await deps.ports.dns.ensureRecord(specOf(n)));
    }
    return [...outcomes, ...(await syncPtrs(deps, tenant, index, undefined, { plan, left }))];
  };
  return plan ? republish() : withDnsWrites(deps, republish);
}

/** The life of each name the service publishes for the tenant, by name (a workload's and a record's are never the same). */
function namedLives(lives: LifeOf, tenant: string, workloads: readonly WorkloadRow[], records: readonly RecordRow[]): Map<string, Life> {
  return new Map([
    ...workloads.map((w) => [w.name, lives(objectPath.workload(tenant, w.name), { registered: true, finished: w.status === 'ready' })] as const),
    ...records.map((r) => [r.name, lives(objectPath.record(tenant, r.name), { registered: true, finished: true })] as const),
  ]);
}

/** The names a reconcile or another run leaves alone (`own`, the calling run's name, aside). */
const notSettled = (lives: ReadonlyMap<string, Life>, own?: string): Map<string, Life> =>
  new Map([...lives].filter(([name, life]) => name !== own && !mayCorrect(life)));

function sameName(a: string, b: string): boolean {
  const n = (x: string) => x.trim().toLowerCase().replace(/\.$/, '');
  return n(a) === n(b);
}
