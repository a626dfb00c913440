import { auditAdmissionIssue, auditAdmissionWithdraw } from './audit.js';
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { admissions, tenants } from '../schema/index.js';

/** Issues an admission; an earlier unused one for the name is spent, so one token is live at a time. */
export async function issueAdmission(
  db: Db,
  a: { tokenHash: string; name: string; mac?: string; expiresAt: Date; actor: string; wifi: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(admissions)
      .set({ spentAt: new Date() })
      .where(and(eq(admissions.name, a.name), isNull(admissions.spentAt)));
    await tx.insert(admissions).values({ tokenHash: a.tokenHash, name: a.name, mac: a.mac ?? null, expiresAt: a.expiresAt });
    await auditAdmissionIssue(tx as unknown as Db, { actor: a.actor, name: a.name, ...(a.mac ? { mac: a.mac } : {}), wifi: a.wifi });
  });
}

export async function liveAdmission(db: Db, tokenHash: string): Promise<{ name: string } | undefined> {
  const [row] = await db
    .select({ name: admissions.name })
    .from(admissions)
    .where(and(eq(admissions.tokenHash, tokenHash), isNull(admissions.spentAt), gt(admissions.expiresAt, new Date())));
  return row;
}

/**
 * Whether `tokenHash` is an enrollment token that was spent and whose tenant is registered and
 * not ready: a create that spent it failed at a step, and the tenant's own token resumes it.
 */
export async function spentOnUnfinishedTenant(db: Db, tokenHash: string): Promise<boolean> {
  const [row] = await db
    .select({ name: admissions.name })
    .from(admissions)
    .innerJoin(tenants, eq(tenants.name, admissions.name))
    .where(and(eq(admissions.tokenHash, tokenHash), isNotNull(admissions.spentAt), eq(tenants.status, 'provisioning')));
  return row !== undefined;
}

/** Spends a live token atomically; false when it was already spent (a concurrent create won) or has expired since. */
export async function spendAdmission(db: Db, tokenHash: string): Promise<boolean> {
  const now = new Date();
  const rows = await db
    .update(admissions)
    .set({ spentAt: now })
    .where(and(eq(admissions.tokenHash, tokenHash), isNull(admissions.spentAt), gt(admissions.expiresAt, now)))
    .returning({ name: admissions.name });
  return rows.length > 0;
}

/** Withdraws the unused, unexpired admission of a name; false when there is none. */
export async function withdrawAdmission(db: Db, name: string, actor: string): Promise<{ mac: string | null } | undefined> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(admissions)
      .set({ spentAt: new Date() })
      .where(and(eq(admissions.name, name), isNull(admissions.spentAt), gt(admissions.expiresAt, new Date())))
      .returning({ mac: admissions.mac });
    await auditAdmissionWithdraw(tx as unknown as Db, { actor, name });
    return rows[0];
  });
}
