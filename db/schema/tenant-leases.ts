import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Who is working on a tenant right now (docs/decisions.md, "One tenant, one order"). A create
 * attempt, a reconcile and a delete hold the tenant alone (`exclusive`); the runs that change one
 * of its resources (workloads, records, device addresses, Wi-Fi keys, broker accounts) hold it
 * together (`shared`). `holder` is the run (workflow id and run id). No foreign key: a create of a
 * new name holds it before the row exists. `expires_at` only frees a lease whose run was ended by
 * hand; a run releases its lease itself.
 */
export const tenantLeases = pgTable(
  'tenant_leases',
  {
    tenant: text('tenant').notNull(),
    holder: text('holder').notNull(),
    mode: text('mode', { enum: ['exclusive', 'shared'] }).notNull(),
    operation: text('operation').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.holder] }), index('tenant_leases_tenant').on(t.tenant)],
);
