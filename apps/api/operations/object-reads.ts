import { tenantExists } from '../../../db/queries/tenants.js';
import type { Db } from '../../../db/registry.js';
import type { Condition } from '../../../core/object-life.js';
import { withConditions } from '../conditions.js';

/** How one kind of object (a workload, a record, a broker account, a Wi-Fi key) is read from the registry and shown. */
export interface ObjectKind<Row extends { name: string }, View> {
  get(db: Db, tenant: string, name: string): Promise<Row | undefined>;
  list(db: Db, tenant: string): Promise<Row[]>;
  view(row: Row): View;
  /** Where its runs name it (apps/api/conditions.ts `objectPath`). */
  path(tenant: string, name: string): string;
  /** Whether its row says it is finished. */
  finished(row: Row): boolean;
}

/** The registry reads of an object's routes: one object, a tenant's list, the tenant; each object with its condition. */
export interface ObjectReads<View extends object> {
  get(tenant: string, name: string): Promise<(View & { condition: Condition }) | undefined>;
  list(tenant: string): Promise<(View & { condition: Condition })[]>;
  tenantRegistered(tenant: string): Promise<boolean>;
}

export function objectReads<Row extends { name: string }, View extends object>(db: Db, kind: ObjectKind<Row, View>): ObjectReads<View> {
  const conditioned = (tenant: string, rows: Row[]) =>
    withConditions(
      db,
      rows.map((row) => ({ object: kind.path(tenant, row.name), finished: kind.finished(row), view: kind.view(row) })),
    );
  return {
    async get(tenant, name) {
      const row = await kind.get(db, tenant, name);
      return row ? (await conditioned(tenant, [row]))[0] : undefined;
    },
    list: async (tenant) => conditioned(tenant, await kind.list(db, tenant)),
    tenantRegistered: (tenant) => tenantExists(db, tenant),
  };
}
