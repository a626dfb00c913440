import { pgTable, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { namedByTenant, tenantNameKey } from './tenant-rows.js';

/** A name the tenant published through the service (`<name>.<zone>`), for a subnet or a device address. */
export const records = pgTable(
  'records',
  {
    ...namedByTenant(),
    address: text('address').notNull(),
    /** `subnet`: published with its PTR; `device`: an address reserved for a device, no PTR. */
    kind: text('kind', { enum: ['subnet', 'device'] }).notNull(),
    ...stamps(),
  },
  (t) => [tenantNameKey(t)],
);
