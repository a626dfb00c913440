import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { namedByTenant, tenantNameKey } from './tenant-rows.js';

/** The current server certificate of a name; everything in it is public. */
export const certificates = pgTable(
  'certificates',
  {
    ...namedByTenant(),
    names: jsonb('names').$type<string[]>().notNull(),
    certificatePem: text('certificate_pem').notNull(),
    chainPem: text('chain_pem').notNull(),
    publicKeyFingerprint: text('public_key_fingerprint').notNull(),
    serial: text('serial').notNull(),
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }).notNull(),
    notAfter: timestamp('not_after', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [tenantNameKey(t)],
);
