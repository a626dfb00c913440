import { and, asc, eq, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './locks.js';

type Named = PgTable & { tenant: Column; name: Column };

/** The reads every table of objects a tenant names shares: one by (tenant, name), a tenant's all by name. */
export function namedRows<T extends Named>(table: T) {
  type Row = T['$inferSelect'];
  const key = (tenant: string, name: string): SQL => and(eq(table.tenant, tenant), eq(table.name, name))!;
  return {
    key,
    async get(db: Executor, tenant: string, name: string): Promise<Row | undefined> {
      const [row] = (await db
        .select()
        .from(table as PgTable)
        .where(key(tenant, name))) as Row[];
      return row;
    },
    list: (db: Executor, tenant: string): Promise<Row[]> =>
      db
        .select()
        .from(table as PgTable)
        .where(eq(table.tenant, tenant))
        .orderBy(asc(table.name)) as Promise<Row[]>,
  };
}
