import { desc, eq } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { auditLog } from '../schema/index.js';

/**
 * The service audit log (spec: Events): changes to published names and to the caller's identity,
 * with who made them. Entries never hold a secret: names, outcomes and steps only.
 */
export interface AuditEntry {
  actor: string;
  action: string;
  tenant?: string;
  object: string;
  detail?: unknown;
}

export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({ ...entry, tenant: entry.tenant ?? null, detail: entry.detail ?? null });
}

/** A tenant's newest audit entry. */
export async function lastAuditOf(db: Db, tenant: string): Promise<{ at: Date; actor: string; action: string; detail: unknown } | undefined> {
  const [row] = await db
    .select({ at: auditLog.at, actor: auditLog.actor, action: auditLog.action, detail: auditLog.detail })
    .from(auditLog)
    .where(eq(auditLog.tenant, tenant))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

/** The actor of a call made before calls carried theirs (a run in flight across the upgrade). */
export const UNKNOWN_ACTOR = 'unknown';

export interface TenantZones {
  zone: string;
  reverse_zone: string;
}

/**
 * A tenant create's answer: its zones published and a tenant token issued or taken over (every
 * outcome but a refusal; a failed step has issued the token already). `restored`, `reissued` and
 * a `reconciled` create carrying secrets are restores: the supplied secrets became the tenant's.
 */
export async function auditTenantCreate(
  db: Db,
  entry: { actor: string; tenant: string; outcome: string; index: number; zones: TenantZones; failedStep?: string },
): Promise<void> {
  const restore = entry.outcome === 'restored' || entry.outcome === 'reissued' || entry.outcome === 'reconciled';
  await audit(db, {
    actor: entry.actor,
    action: restore ? 'tenant.restore' : 'tenant.create',
    tenant: entry.tenant,
    object: entry.zones.zone,
    detail: {
      outcome: entry.outcome,
      index: entry.index,
      zones: [entry.zones.zone, entry.zones.reverse_zone],
      ...(entry.failedStep ? { failed_step: entry.failedStep } : {}),
    },
  });
}

/** A tenant deleted: every name under its zones is gone, and its token names no tenant any more. */
export async function auditTenantDelete(db: Db, entry: { actor: string; tenant: string; zones: TenantZones }): Promise<void> {
  await audit(db, {
    actor: entry.actor,
    action: 'tenant.delete',
    tenant: entry.tenant,
    object: entry.zones.zone,
    detail: { zones: [entry.zones.zone, entry.zones.reverse_zone] },
  });
}

/** An admission issued (an enrollment token, and a Wi-Fi key on the developer network where there is one). */
export async function auditAdmissionIssue(db: Db, entry: { actor: string; name: string; mac?: string; wifi: boolean }): Promise<void> {
  await audit(db, {
    actor: entry.actor,
    action: 'admission.issue',
    tenant: entry.name,
    object: entry.name,
    detail: { wifi: entry.wifi, mac: entry.mac ?? null },
  });
}

/** An admission withdrawn (its Wi-Fi key revoked). */
export async function auditAdmissionWithdraw(db: Db, entry: { actor: string; name: string }): Promise<void> {
  await audit(db, { actor: entry.actor, action: 'admission.withdraw', tenant: entry.name, object: entry.name });
}
