import { and, count, eq, min, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { steps, tenants } from '../schema/index.js';

/** What the registry says about tenants, read when Prometheus scrapes. */
export interface TenantCensus {
  byStatus: Record<string, number>;
  /** Creates parked on a failed step, waiting for their repeat. */
  parked: number;
  /** Age of the oldest parked create in seconds; 0 when none. */
  oldestParkedSeconds: number;
}

/**
 * What the metrics report about tenants: how many per status, and the creates parked on a failed
 * step (a tenant still provisioning whose registry holds a failed step), with the oldest's age.
 */
export async function tenantCensus(db: Db): Promise<TenantCensus> {
  const [statuses, parked] = await Promise.all([
    db.select({ status: tenants.status, n: count() }).from(tenants).groupBy(tenants.status),
    db
      .select({ n: sql<number>`count(distinct ${tenants.name})::int`, since: min(steps.updatedAt) })
      .from(tenants)
      .innerJoin(steps, and(eq(steps.tenant, tenants.name), eq(steps.ok, false)))
      .where(eq(tenants.status, 'provisioning')),
  ]);
  const since = parked[0]?.since;
  return {
    byStatus: Object.fromEntries(statuses.map((r) => [r.status, Number(r.n)])),
    parked: Number(parked[0]?.n ?? 0),
    oldestParkedSeconds: since ? Math.max(0, (Date.now() - since.getTime()) / 1000) : 0,
  };
}
