import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { reconcilePlans, type ReconcilePlanRow } from '../schema/index.js';

export type NewPlan = Omit<ReconcilePlanRow, 'createdAt' | 'appliedAt' | 'appliedBy' | 'expiresAt'> & { lifetimeMs: number };

/** Keeps a plan; plans expired a day ago go with it (nobody can apply them). */
export async function savePlan(db: Db, p: NewPlan): Promise<ReconcilePlanRow> {
  const { lifetimeMs, ...row } = p;
  await db.delete(reconcilePlans).where(lt(reconcilePlans.expiresAt, sql`now() - interval '1 day'`));
  const [saved] = await db
    .insert(reconcilePlans)
    .values({ ...row, expiresAt: sql`now() + make_interval(secs => ${lifetimeMs / 1000})` })
    .returning();
  return saved!;
}

/** The tenant's plan of this id, applied or not, expired or not; undefined for another tenant's. */
export async function getPlan(db: Db, tenant: string, id: string): Promise<(ReconcilePlanRow & { expired: boolean }) | undefined> {
  const [row] = await db
    .select({ plan: reconcilePlans, expired: sql<boolean>`${reconcilePlans.expiresAt} <= now()` })
    .from(reconcilePlans)
    .where(and(eq(reconcilePlans.id, id), eq(reconcilePlans.tenant, tenant)));
  return row ? { ...row.plan, expired: row.expired } : undefined;
}

/** Marks the plan applied, once: false when another apply took it first or it expired meanwhile. */
export async function takePlan(db: Db, tenant: string, id: string, actor: string): Promise<boolean> {
  const taken = await db
    .update(reconcilePlans)
    .set({ appliedAt: sql`now()`, appliedBy: actor })
    .where(and(eq(reconcilePlans.id, id), eq(reconcilePlans.tenant, tenant), isNull(reconcilePlans.appliedAt), gt(reconcilePlans.expiresAt, sql`now()`)))
    .returning({ id: reconcilePlans.id });
  return taken.length === 1;
}
