import { count, eq, notInArray, sql } from 'drizzle-orm';
import { CANARY_NAMES } from '../../core/canaries.js';
import type { Db } from '../registry.js';
import { objectRuns, tenants } from '../schema/index.js';

/** The kinds of object a run works on, as the parked gauge labels them (contracts/ids.ts objectPath). */
export const OBJECT_KINDS = ['tenant', 'workload', 'record', 'device-address', 'wifi-key', 'broker-account'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** The kind of an object by its path below `/v1/` (`tenants/acme/workloads/web` is a workload). */
export function kindOfObject(path: string): ObjectKind | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'tenants' || !parts[1]) return undefined;
  if (parts.length === 2) return 'tenant';
  if (parts[2] === 'devices' && parts[4] === 'address') return 'device-address';
  const kind = parts[2]?.replace(/s$/, '');
  return (OBJECT_KINDS as readonly string[]).includes(kind ?? '') && parts.length === 4 ? (kind as ObjectKind) : undefined;
}

/** The runs of one kind parked after a failed step: how many, and the oldest's age (0 when none). */
export interface ParkedRuns {
  runs: number;
  oldestSeconds: number;
}

/** What the registry says about tenants and runs, read when Prometheus scrapes. */
export interface TenantCensus {
  byStatus: Record<string, number>;
  /** Runs of every kind of object parked after a failed step, waiting for their repeat, by kind. */
  parked: Record<ObjectKind, ParkedRuns>;
}

export const noneParked = (): Record<ObjectKind, ParkedRuns> =>
  Object.fromEntries(OBJECT_KINDS.map((k) => [k, { runs: 0, oldestSeconds: 0 }])) as Record<ObjectKind, ParkedRuns>;

/**
 * What the metrics report: tenants per status, and the runs parked after a failed step by the kind
 * of object they work on (the registry's `object_runs`, which every object's run writes: a
 * workload's create parks as a tenant's does), with the oldest's age by the database's clock.
 */
export async function tenantCensus(db: Db): Promise<TenantCensus> {
  const [statuses, parkedRows] = await Promise.all([
    // The isolation check's canaries are the service's own, not the site's tenants (core/canaries.ts); their parked runs still count.
    db
      .select({ status: tenants.status, n: count() })
      .from(tenants)
      .where(notInArray(tenants.name, [...CANARY_NAMES]))
      .groupBy(tenants.status),
    db
      .select({ object: objectRuns.object, age: sql<number>`extract(epoch from now() - ${objectRuns.since})::float8` })
      .from(objectRuns)
      .where(eq(objectRuns.state, 'parked')),
  ]);
  const parked = noneParked();
  for (const row of parkedRows) {
    const kind = kindOfObject(row.object);
    if (!kind) continue;
    parked[kind].runs++;
    parked[kind].oldestSeconds = Math.max(parked[kind].oldestSeconds, Math.max(0, Number(row.age)));
  }
  return { byStatus: Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)])), parked };
}
