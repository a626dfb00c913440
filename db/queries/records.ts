import { and, eq } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { auditLog, deviceAddresses, records, workloads } from '../schema/index.js';
import { namedRows } from './named-rows.js';
import type { RecordKind } from '../../core/views/record.js';

export type RecordRow = typeof records.$inferSelect;

const rows = namedRows(records, records.name);
export const getRecord = rows.get;
/** The names the tenant added, by name. */
export const listRecords = rows.list;

/** The addresses the tenant reserved for its devices, with the device each is for. */
export async function tenantDeviceAddresses(db: Db, tenant: string): Promise<{ device: string; address: string }[]> {
  return db.select({ device: deviceAddresses.device, address: deviceAddresses.address }).from(deviceAddresses).where(eq(deviceAddresses.tenant, tenant));
}

export type NameOwner = 'workload' | 'record' | 'device';

/**
 * Which of the service's names of the tenant a label already is: a workload's, a record's, or the
 * name published for a device's reserved address (`<device>.<zone>`).
 */
export async function nameOwner(db: Db, tenant: string, label: string): Promise<NameOwner | undefined> {
  const [w, r, d] = await Promise.all([
    db
      .select({ name: workloads.name })
      .from(workloads)
      .where(and(eq(workloads.tenant, tenant), eq(workloads.name, label))),
    db
      .select({ name: records.name })
      .from(records)
      .where(and(eq(records.tenant, tenant), eq(records.name, label))),
    db
      .select({ name: deviceAddresses.device })
      .from(deviceAddresses)
      .where(and(eq(deviceAddresses.tenant, tenant), eq(deviceAddresses.device, label))),
  ]);
  return w.length ? 'workload' : r.length ? 'record' : d.length ? 'device' : undefined;
}

/** Publishes (or moves) a record in the registry, with its audit row. */
export async function saveRecord(db: Db, r: { tenant: string; name: string; address: string; kind: RecordKind; actor: string }): Promise<RecordRow> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(records)
      .where(and(eq(records.tenant, r.tenant), eq(records.name, r.name)));
    const [row] = await tx
      .insert(records)
      .values({ tenant: r.tenant, name: r.name, address: r.address, kind: r.kind })
      .onConflictDoUpdate({ target: [records.tenant, records.name], set: { address: r.address, kind: r.kind, updatedAt: new Date() } })
      .returning();
    if (!before || before.address !== r.address || before.kind !== r.kind) {
      await tx.insert(auditLog).values({
        actor: r.actor,
        action: 'record.put',
        tenant: r.tenant,
        object: `record ${r.name}`,
        detail: { address: r.address, kind: r.kind, ...(before ? { previous_address: before.address } : {}) },
      });
    }
    return row!;
  });
}

/** Forgets a record, with its audit row; false when there was none. */
export async function deleteRecord(db: Db, tenant: string, name: string, actor: string): Promise<boolean> {
  const gone = await rows.forget(db, tenant, name, (row) => ({
    actor,
    action: 'record.delete',
    tenant,
    object: `record ${name}`,
    detail: { address: row.address, kind: row.kind },
  }));
  return gone !== undefined;
}
