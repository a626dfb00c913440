import { and, eq, gt, isNull, not, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { namedRows } from './named-rows.js';
import { LOCK_SPACE, type Executor } from './locks.js';
import { admissions, tenants, wifiKeys } from '../schema/index.js';
import { open, seal, type SealKeys } from '../seal.js';

export type WifiKeyRow = typeof wifiKeys.$inferSelect;

const rows = namedRows(wifiKeys, wifiKeys.name);
export const getWifiKey = rows.get;
export const listWifiKeys = rows.list;

export type IssueRefusal = 'trust-class-changed' | 'psk-mismatch' | 'psk-unreadable' | 'psk-elsewhere';

export type IssueOutcome = { kind: 'issued'; row: WifiKeyRow; psk: string; replaces: string[] } | { kind: 'refused'; reason: IssueRefusal };

/**
 * Issues a key or picks up the one the tenant holds. A new key gets a minted psk (or the
 * supplied one, a restore after the registry was lost). An existing key keeps its psk; a
 * supplied psk is taken only when the stored copy cannot be opened, and the fingerprint of the
 * password it replaces is returned so the controller entry can be swapped in one write.
 */
export async function issueWifiKey(
  db: Db,
  keys: SealKeys,
  input: { tenant: string; name: string; trustClass: string; ssid: string; supplied?: string },
  secret: { mint: () => string; fingerprint: (psk: string) => string; holds: (row: WifiKeyRow, psk: string) => boolean },
): Promise<IssueOutcome> {
  return db.transaction(async (tx) => {
    const where = and(eq(wifiKeys.tenant, input.tenant), eq(wifiKeys.name, input.name));
    if (input.supplied !== undefined) {
      // One password, one key: the controller keeps one entry per password, so a psk another key
      // holds (another tenant's, or another of this tenant's) would tie the two keys together and
      // revoking one would cut the other's devices off. A supplied psk only restores this key.
      // Restores are rare and serialised by this lock, so two cannot take one password at once.
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE.wifiRestore}::int, 0)`);
      const others = await tx.select().from(wifiKeys).where(not(where!));
      if (others.some((other) => secret.holds(other, input.supplied!))) return { kind: 'refused' as const, reason: 'psk-elsewhere' as const };
    }
    const [row] = await tx.select().from(wifiKeys).where(where).for('update');
    if (!row) {
      const psk = input.supplied ?? secret.mint();
      const values = {
        tenant: input.tenant,
        name: input.name,
        trustClass: input.trustClass,
        ssid: input.ssid,
        psk: seal(keys, psk),
        fingerprint: secret.fingerprint(psk),
      };
      const [inserted] = await tx.insert(wifiKeys).values(values).onConflictDoNothing().returning();
      if (inserted) return { kind: 'issued' as const, row: inserted, psk, replaces: [] };
      // A concurrent first issue won the name: read its key (the lock now waits for its commit).
      const [winner] = await tx.select().from(wifiKeys).where(where).for('update');
      const stored = open(keys, winner!.psk);
      if (winner!.trustClass !== input.trustClass) return { kind: 'refused' as const, reason: 'trust-class-changed' as const };
      if (stored === undefined || (input.supplied !== undefined && input.supplied !== stored)) {
        return { kind: 'refused' as const, reason: 'psk-mismatch' as const };
      }
      return { kind: 'issued' as const, row: winner!, psk: stored, replaces: [] };
    }
    if (row.trustClass !== input.trustClass) return { kind: 'refused' as const, reason: 'trust-class-changed' as const };
    const stored = open(keys, row.psk);
    if (stored !== undefined) {
      if (input.supplied !== undefined && input.supplied !== stored) return { kind: 'refused' as const, reason: 'psk-mismatch' as const };
      return { kind: 'issued' as const, row, psk: stored, replaces: [] };
    }
    if (input.supplied === undefined) return { kind: 'refused' as const, reason: 'psk-unreadable' as const };
    const fingerprint = secret.fingerprint(input.supplied);
    const [updated] = await tx
      .update(wifiKeys)
      .set({ psk: seal(keys, input.supplied), fingerprint, updatedAt: new Date() })
      .where(where)
      .returning();
    return { kind: 'issued' as const, row: updated!, psk: input.supplied, replaces: row.fingerprint === fingerprint ? [] : [row.fingerprint] };
  });
}

/**
 * The admission key of a name: every admission replaces it with a new psk (and MAC binding);
 * the fingerprint of the earlier one is returned so its controller entry goes in the same write.
 */
export async function replaceAdmissionKey(
  db: Db,
  keys: SealKeys,
  input: { tenant: string; name: string; trustClass: string; ssid: string; mac: string | null; psk: string; fingerprint: string },
): Promise<{ row: WifiKeyRow; replaces: string[]; previous?: PreviousAdmissionKey }> {
  return db.transaction(async (tx) => {
    const where = and(eq(wifiKeys.tenant, input.tenant), eq(wifiKeys.name, input.name));
    const [before] = await tx.select({ fingerprint: wifiKeys.fingerprint, ssid: wifiKeys.ssid, mac: wifiKeys.mac }).from(wifiKeys).where(where).for('update');
    const values = {
      tenant: input.tenant,
      name: input.name,
      trustClass: input.trustClass,
      ssid: input.ssid,
      psk: seal(keys, input.psk),
      fingerprint: input.fingerprint,
      mac: input.mac,
    };
    const [row] = await tx
      .insert(wifiKeys)
      .values(values)
      .onConflictDoUpdate({ target: [wifiKeys.tenant, wifiKeys.name], set: { ...values, updatedAt: new Date() } })
      .returning();
    const replaces = before && before.ssid === input.ssid && before.fingerprint !== input.fingerprint ? [before.fingerprint] : [];
    // Another WLAN or another client: the earlier entry and binding go by a write of their own.
    const moved = before && (before.ssid !== input.ssid || before.mac !== input.mac);
    return { row: row!, replaces, ...(moved ? { previous: before } : {}) };
  });
}

/** Where an admission key stood before a re-admission moved it (to the bound WLAN, or off it). */
export interface PreviousAdmissionKey {
  ssid: string;
  fingerprint: string;
  mac: string | null;
}

/**
 * Whether a key of the WLAN other than the one named is bound to the MAC: then the MAC stays on
 * the WLAN's allow-list when the named key leaves it.
 */
export async function macBoundOnSsid(db: Executor, ssid: string, mac: string, except: { tenant: string; name: string }): Promise<boolean> {
  const [row] = await db
    .select({ name: wifiKeys.name })
    .from(wifiKeys)
    .where(and(eq(wifiKeys.ssid, ssid), eq(wifiKeys.mac, mac), not(and(eq(wifiKeys.tenant, except.tenant), eq(wifiKeys.name, except.name))!)))
    .limit(1);
  return row !== undefined;
}

export async function deleteWifiKey(db: Executor, tenant: string, name: string): Promise<void> {
  await db.delete(wifiKeys).where(and(eq(wifiKeys.tenant, tenant), eq(wifiKeys.name, name)));
}

/** Whether the name has an admission that is neither spent nor expired. */
export async function unusedAdmissionExists(db: Db, name: string): Promise<boolean> {
  const [row] = await db
    .select({ name: admissions.name })
    .from(admissions)
    .where(and(eq(admissions.name, name), isNull(admissions.spentAt), gt(admissions.expiresAt, new Date())))
    .limit(1);
  return row !== undefined;
}

/**
 * The admission keys whose admission expired unused: the name is no registered tenant, it has no
 * live admission, and the admission issued with the key (the first one after the key was minted:
 * the key is written before its token) has expired. A key minted for a re-admission still in
 * flight has no such admission yet, so it is never taken for an expired one.
 */
export async function expiredAdmissionKeys(db: Db, name: string, now: Date): Promise<{ tenant: string; fingerprint: string }[]> {
  return db
    .select({ tenant: wifiKeys.tenant, fingerprint: wifiKeys.fingerprint })
    .from(wifiKeys)
    .where(
      and(
        eq(wifiKeys.name, name),
        sql`not exists (select 1 from ${tenants} where ${tenants.name} = ${wifiKeys.tenant})`,
        sql`not exists (select 1 from ${admissions} where ${admissions.name} = ${wifiKeys.tenant} and ${admissions.spentAt} is null and ${admissions.expiresAt} > ${now.toISOString()}::timestamptz)`,
        sql`exists (select 1 from ${admissions} where ${admissions.name} = ${wifiKeys.tenant} and ${admissions.createdAt} >= ${wifiKeys.updatedAt} and ${admissions.expiresAt} <= ${now.toISOString()}::timestamptz)`,
      ),
    );
}
