import { pgTable, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { namedByTenant, tenantNameKey } from './tenant-rows.js';

/** A device registry entry: identity only; it grants, reserves and names nothing. */
export const devices = pgTable(
  'devices',
  {
    ...namedByTenant(),
    trustClass: text('trust_class').notNull(),
    mac: text('mac'),
    ...stamps(),
  },
  (t) => [tenantNameKey(t)],
);
