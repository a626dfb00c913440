import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** An enrollment token for one name: stored as a hash, single use, with an expiry. */
export const admissions = pgTable('admissions', {
  tokenHash: text('token_hash').primaryKey(),
  name: text('name').notNull(),
  mac: text('mac'),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  spentAt: timestamp('spent_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
