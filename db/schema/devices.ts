import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants.js';

/** A device registry entry: identity only; it grants, reserves and names nothing. */
export const devices = pgTable(
  'devices',
  {
    tenant: text('tenant').notNull().references(() => tenants.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    trustClass: text('trust_class').notNull(),
    mac: text('mac'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] })],
);
