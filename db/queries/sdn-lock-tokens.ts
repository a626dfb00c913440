import { and, desc, eq, like, lt, notLike, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { sdnLockTokens } from '../schema/index.js';

/**
 * The Proxmox SDN lock tokens the service holds (db/schema/sdn-lock-tokens.ts). Written on the
 * registry itself, not in the caller's transaction: a token must be on record the moment the lock
 * is taken, also when the worker then dies and its transaction rolls back.
 */
export async function recordSdnLockToken(db: Db, token: string): Promise<void> {
  await db.insert(sdnLockTokens).values({ token }).onConflictDoNothing();
}

export async function forgetSdnLockToken(db: Db, token: string): Promise<void> {
  await db.delete(sdnLockTokens).where(eq(sdnLockTokens.token, token));
}

/** The tokens on record, newest first (take markers are not tokens). */
export async function sdnLockTokensHeld(db: Db): Promise<string[]> {
  return (
    await db.select({ token: sdnLockTokens.token }).from(sdnLockTokens).where(notLike(sdnLockTokens.token, 'taking:%')).orderBy(desc(sdnLockTokens.takenAt))
  ).map((r) => r.token);
}

/** A take about to be asked, on record under its marker (backends/proxmox/sdn-lock.ts). */
export async function recordSdnLockTake(db: Db, marker: string): Promise<void> {
  await db.insert(sdnLockTokens).values({ token: marker });
}

/** The take answered: its token on record and its marker gone, together (one statement, so one round trip and no transaction to open). */
export async function sdnLockTakeAnswered(db: Db, marker: string, token: string): Promise<void> {
  await db.execute(
    sql`with gone as (delete from ${sdnLockTokens} where ${sdnLockTokens.token} = ${marker}) insert into ${sdnLockTokens} (token) values (${token}) on conflict do nothing`,
  );
}

/** Markers of takes older than `ms` that never answered. */
export async function lostSdnLockTakes(db: Db, ms: number): Promise<string[]> {
  const rows = await db
    .select({ token: sdnLockTokens.token })
    .from(sdnLockTokens)
    .where(and(like(sdnLockTokens.token, 'taking:%'), lt(sdnLockTokens.takenAt, sql`now() - make_interval(secs => ${ms / 1000})`)));
  return rows.map((r) => r.token);
}
