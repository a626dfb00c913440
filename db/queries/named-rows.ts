import { and, asc, eq, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../registry.js';
import { audit, type AuditEntry } from './audit.js';
import type { Executor } from './locks.js';

type OfTenant = PgTable & { tenant: Column };

/**
 * The reads every table of objects a tenant names shares: one by (tenant, name), a tenant's all in
 * `order`. `name` is the column that names a row within its tenant (`name`; a device's address:
 * `device`), and the list's order unless another is said (workloads: by ordinal).
 */
export function namedRows<T extends OfTenant>(table: T, name: Column, order: Column = name) {
  type Row = T['$inferSelect'];
  const key = (tenant: string, value: string): SQL => and(eq(table.tenant, tenant), eq(name, value))!;
  return {
    key,
    async get(db: Executor, tenant: string, name: string): Promise<Row | undefined> {
      const [row] = (await db
        .select()
        .from(table as PgTable)
        .where(key(tenant, name))) as Row[];
      return row;
    },
    /** Deletes one row and, in the same transaction, writes the audit entry made of it; the row, or undefined when there was none. */
    forget: (db: Db, tenant: string, name: string, entry: (gone: Row) => AuditEntry): Promise<Row | undefined> =>
      db.transaction(async (tx) => {
        const [gone] = (await tx
          .delete(table as PgTable)
          .where(key(tenant, name))
          .returning()) as Row[];
        if (gone) await audit(tx as unknown as Db, entry(gone));
        return gone;
      }),
    list: (db: Executor, tenant: string): Promise<Row[]> =>
      db
        .select()
        .from(table as PgTable)
        .where(eq(table.tenant, tenant))
        .orderBy(asc(order)) as Promise<Row[]>,
  };
}
