import { boolean, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants.js';

/** The outcome of each backend step of a tenant; the failure text goes to the log, never here. */
export const steps = pgTable(
  'steps',
  {
    tenant: text('tenant')
      .notNull()
      .references(() => tenants.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ok: boolean('ok').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] })],
);
