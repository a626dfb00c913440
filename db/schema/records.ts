import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { tenants } from './tenants.js';

/** A name the tenant published through the service (`<name>.<zone>`), for a subnet or a device address. */
export const records = pgTable(
  'records',
  {
    tenant: text('tenant')
      .notNull()
      .references(() => tenants.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    address: text('address').notNull(),
    /** `subnet`: published with its PTR; `device`: an address reserved for a device, no PTR. */
    kind: text('kind', { enum: ['subnet', 'device'] }).notNull(),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] })],
);
