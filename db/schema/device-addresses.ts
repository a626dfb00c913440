import { pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { ofTenant } from './tenant-rows.js';

/** A fixed address reserved for a device's MAC on the shared device network. */
export const deviceAddresses = pgTable(
  'device_addresses',
  {
    ...ofTenant(),
    device: text('device').notNull(),
    trustClass: text('trust_class').notNull(),
    address: text('address').notNull(),
    mac: text('mac').notNull(),
    ...stamps(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.device] }), unique('device_addresses_address').on(t.address), unique('device_addresses_mac').on(t.mac)],
);
