import { and, eq, gt, ne, notLike, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { tenantLeases } from '../schema/index.js';
import { LOCK_SPACE, withLocks } from './locks.js';

export type LeaseMode = 'exclusive' | 'shared'; // as workflows/tenant-lease.ts names them

/** A lease outlives its run only when the run was ended by hand (terminated): then it frees itself. */
export const LEASE_TTL_MS = 15 * 60_000;

export type LeaseClaim = { granted: true } | { granted: false; heldBy: string };

/**
 * Claims the tenant for a run (docs/decisions.md, "One tenant, one order"): an exclusive lease
 * when no other run holds any, a shared one when no other run holds an exclusive one. Decided
 * under the tenant's advisory lock, so two claims never both see the tenant free. Claiming again
 * by the same holder renews it.
 */
export async function claimTenant(db: Db, c: { tenant: string; holder: string; mode: LeaseMode; operation: string }): Promise<LeaseClaim> {
  return withLocks(db, async (tx, lock) => {
    await lock(LOCK_SPACE.tenant, c.tenant);
    const others = await tx
      .select({ mode: tenantLeases.mode, operation: tenantLeases.operation })
      .from(tenantLeases)
      .where(and(eq(tenantLeases.tenant, c.tenant), ne(tenantLeases.holder, c.holder), gt(tenantLeases.expiresAt, sql`now()`)));
    const blocking = others.find((o) => c.mode === 'exclusive' || o.mode === 'exclusive');
    if (blocking) return { granted: false, heldBy: blocking.operation };
    const expiresAt = new Date(Date.now() + LEASE_TTL_MS);
    await tx
      .insert(tenantLeases)
      .values({ tenant: c.tenant, holder: c.holder, mode: c.mode, operation: c.operation, expiresAt })
      .onConflictDoUpdate({ target: [tenantLeases.tenant, tenantLeases.holder], set: { mode: c.mode, operation: c.operation, expiresAt } });
    return { granted: true };
  });
}

export async function releaseTenant(db: Db, tenant: string, holder: string): Promise<void> {
  await db.delete(tenantLeases).where(and(eq(tenantLeases.tenant, tenant), eq(tenantLeases.holder, holder)));
}

/** Every lease the holder (a run) holds: its tenant's and its name's, released by one statement. */
export async function releaseHeld(db: Db, holder: string): Promise<void> {
  await db.delete(tenantLeases).where(eq(tenantLeases.holder, holder));
}

/**
 * The tenants a run holds alone right now (a create, a reconcile, a delete), not the names of
 * their objects (`<tenant>/<name>`, held alone by their runs): the SDN apply round's view of who
 * may still be on the way to the fabric.
 */
export async function tenantsHeldAlone(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ tenant: tenantLeases.tenant })
    .from(tenantLeases)
    .where(and(eq(tenantLeases.mode, 'exclusive'), gt(tenantLeases.expiresAt, sql`now()`), notLike(tenantLeases.tenant, '%/%')));
  return rows.map((r) => r.tenant);
}
