import { and, eq } from 'drizzle-orm';
import type { Db } from '../registry.js';
import type { Executor } from './locks.js';
import { deviceAddresses, records, workloads } from '../schema/index.js';
import { isUniqueViolation } from './unique.js';
import { namedRows } from './named-rows.js';

export type DeviceAddressRow = typeof deviceAddresses.$inferSelect;

/** A device's address is named by its device. */
const rows = namedRows(deviceAddresses, deviceAddresses.device);
export const getDeviceAddress = rows.get;
export const listDeviceAddresses = rows.list;

/** Whether the tenant holds any reservation: its create and reconcile then run the `device-address` step. */
export async function holdsDeviceAddresses(db: Db, tenant: string): Promise<boolean> {
  const [row] = await db.select({ device: deviceAddresses.device }).from(deviceAddresses).where(eq(deviceAddresses.tenant, tenant)).limit(1);
  return row !== undefined;
}

/** Every reservation of the shared device network (all tenants): what is taken. */
export async function allDeviceAddresses(db: Executor): Promise<Pick<DeviceAddressRow, 'tenant' | 'device' | 'address' | 'mac'>[]> {
  return db
    .select({ tenant: deviceAddresses.tenant, device: deviceAddresses.device, address: deviceAddresses.address, mac: deviceAddresses.mac })
    .from(deviceAddresses);
}

/** Whether `name` is already one of the tenant's workloads or published records. */
export async function nameUsedByWorkloadOrRecord(db: Db, tenant: string, name: string): Promise<boolean> {
  const [w] = await db
    .select({ name: workloads.name })
    .from(workloads)
    .where(and(eq(workloads.tenant, tenant), eq(workloads.name, name)));
  if (w) return true;
  const [r] = await db
    .select({ name: records.name })
    .from(records)
    .where(and(eq(records.tenant, tenant), eq(records.name, name)));
  return r !== undefined;
}

/** Whether a name the tenant published (a device record) still points at `address`. */
export async function recordPointsAt(db: Executor, tenant: string, address: string): Promise<boolean> {
  const [r] = await db
    .select({ name: records.name })
    .from(records)
    .where(and(eq(records.tenant, tenant), eq(records.address, address), eq(records.kind, 'device')));
  return r !== undefined;
}

export type InsertOutcome = { kind: 'inserted'; row: DeviceAddressRow } | { kind: 'exists' } | { kind: 'address-taken' } | { kind: 'mac-taken' };

/** The unique constraints settle races: two replicas can never reserve one address or one MAC twice. */
export async function insertDeviceAddress(
  db: Db,
  r: { tenant: string; device: string; trustClass: string; address: string; mac: string },
): Promise<InsertOutcome> {
  try {
    // In a savepoint of its own (a transaction when `db` is none): the caller may hold a
    // transaction (a lock around the claim), which a unique violation would otherwise abort whole.
    const [row] = await db.transaction((t) =>
      t
        .insert(deviceAddresses)
        .values(r)
        .onConflictDoNothing({ target: [deviceAddresses.tenant, deviceAddresses.device] })
        .returning(),
    );
    return row ? { kind: 'inserted', row } : { kind: 'exists' };
  } catch (err) {
    if (isUniqueViolation(err, 'device_addresses_address')) return { kind: 'address-taken' };
    if (isUniqueViolation(err, 'device_addresses_mac')) return { kind: 'mac-taken' };
    throw err;
  }
}

export async function deleteDeviceAddress(db: Executor, tenant: string, device: string): Promise<void> {
  await db.delete(deviceAddresses).where(and(eq(deviceAddresses.tenant, tenant), eq(deviceAddresses.device, device)));
}
