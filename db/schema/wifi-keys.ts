import { pgTable, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { tenantAndName, tenantNameKey } from './tenant-rows.js';

/** A Wi-Fi key (per-key PSK) of a tenant; the PSK is sealed, its fingerprint finds the controller entry. */
export const wifiKeys = pgTable(
  'wifi_keys',
  {
    ...tenantAndName(),
    trustClass: text('trust_class').notNull(),
    ssid: text('ssid').notNull(),
    psk: text('psk').notNull(),
    fingerprint: text('fingerprint').notNull(),
    mac: text('mac'),
    ...stamps(),
  },
  // No foreign key: the admission key exists before its tenant does.
  (t) => [tenantNameKey(t)],
);
