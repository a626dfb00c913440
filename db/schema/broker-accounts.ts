import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { namedByTenant, tenantNameKey } from './tenant-rows.js';

/** An MQTT account `<tenant>-<name>`; only a hash of its password is kept. */
export const brokerAccounts = pgTable(
  'broker_accounts',
  {
    ...namedByTenant(),
    device: text('device'),
    publish: jsonb('publish').$type<string[]>().notNull(),
    subscribe: jsonb('subscribe').$type<string[]>().notNull(),
    passwordHash: text('password_hash').notNull(),
    ...stamps(),
  },
  (t) => [tenantNameKey(t)],
);
