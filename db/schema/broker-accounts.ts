import { jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants.js';

/** An MQTT account `<tenant>-<name>`; only a hash of its password is kept. */
export const brokerAccounts = pgTable(
  'broker_accounts',
  {
    tenant: text('tenant').notNull().references(() => tenants.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    device: text('device'),
    publish: jsonb('publish').$type<string[]>().notNull(),
    subscribe: jsonb('subscribe').$type<string[]>().notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] })],
);
