import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { tenants } from './tenants.js';

/** A device registry entry: identity only; it grants, reserves and names nothing. */
export const devices = pgTable(
  'devices',
  {
    tenant: text('tenant')
      .notNull()
      .references(() => tenants.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    trustClass: text('trust_class').notNull(),
    mac: text('mac'),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] })],
);
