import { bigserial, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The service audit log (spec: Events): who changed what. Not an interface; never holds secrets. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  tenant: text('tenant'),
  object: text('object').notNull(),
  detail: jsonb('detail'),
});
