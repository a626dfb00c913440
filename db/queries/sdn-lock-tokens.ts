import { desc, eq } from 'drizzle-orm';
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

/** The tokens on record, newest first. */
export async function sdnLockTokensHeld(db: Db): Promise<string[]> {
  return (await db.select({ token: sdnLockTokens.token }).from(sdnLockTokens).orderBy(desc(sdnLockTokens.takenAt))).map((r) => r.token);
}
