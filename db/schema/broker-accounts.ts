import { jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { tenants } from './tenants.js';

/** An MQTT account `<tenant>-<name>`; only a hash of its password is kept. */
export const brokerAccounts = pgTable(
  'broker_accounts',
  {
    tenant: text('tenant')
      .notNull()
      .references(() => tenants.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    device: text('device'),
    publish: jsonb('publish').$type<string[]>().notNull(),
    subscribe: jsonb('subscribe').$type<string[]>().notNull(),
    passwordHash: text('password_hash').notNull(),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] })],
);
