import { boolean, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { namedByTenant, tenantNameKey } from './tenant-rows.js';

/** The outcome of each backend step of a tenant; the failure text goes to the log, never here. */
export const steps = pgTable(
  'steps',
  {
    ...namedByTenant(),
    ok: boolean('ok').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [tenantNameKey(t)],
);
