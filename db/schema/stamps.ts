import { timestamp } from 'drizzle-orm/pg-core';

/** When a row was written first and last; every table of objects carries both. */
export const stamps = () => ({
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
