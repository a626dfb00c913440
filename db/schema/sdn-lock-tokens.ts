import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Proxmox VE's global SDN lock tokens the service took and has not yet seen released: how it
 * knows a held lock is its own. PVE records no owner with a lock, only its token; a lock left by a
 * worker that died before releasing it is released with its token from here, never by force, and a
 * lock whose token is not here is another tool's or a person's (backends/proxmox/sdn-lock.ts).
 */
export const sdnLockTokens = pgTable('sdn_lock_tokens', {
  token: text('token').primaryKey(),
  takenAt: timestamp('taken_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
