import { audit } from './audit.js';
import { and, eq, not } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { namedRows } from './named-rows.js';
import { deviceAddresses, devices } from '../schema/index.js';
import { isUniqueViolation } from './unique.js';

export type DeviceRow = typeof devices.$inferSelect;

const rows = namedRows(devices, devices.name);
export const getDevice = rows.get;
export const listDevices = rows.list;

export type RegisterRefusal = 'trust-class-changed' | 'mac-cleared-with-address' | 'mac-holds-address';

export type RegisterOutcome = { kind: 'registered'; row: DeviceRow; created: boolean; holdsAddress: boolean } | { kind: 'refused'; reason: RegisterRefusal };

/**
 * Registers a device or converges an existing entry. Only the MAC may change; when the device
 * holds a fixed address, the reservation's MAC changes with it in the same transaction (its DHCP
 * side is the caller's to bring along). A MAC that holds another device's address is refused.
 */
/** `actor`: a new entry is audited in the transaction that registers it. */
export async function registerDevice(
  db: Db,
  input: { tenant: string; name: string; trustClass: string; mac: string | null; actor: string },
): Promise<RegisterOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(devices)
          .where(and(eq(devices.tenant, input.tenant), eq(devices.name, input.name)))
          .for('update');
        if (row && row.trustClass !== input.trustClass) return refused('trust-class-changed');
        const [held] = await tx
          .select()
          .from(deviceAddresses)
          .where(and(eq(deviceAddresses.tenant, input.tenant), eq(deviceAddresses.device, input.name)));
        if (held && input.mac === null) return refused('mac-cleared-with-address');
        if (input.mac !== null) {
          const [other] = await tx
            .select({ device: deviceAddresses.device })
            .from(deviceAddresses)
            .where(and(eq(deviceAddresses.mac, input.mac), not(and(eq(deviceAddresses.tenant, input.tenant), eq(deviceAddresses.device, input.name))!)));
          if (other) return refused('mac-holds-address');
        }
        if (held && input.mac !== null && held.mac !== input.mac) {
          await tx
            .update(deviceAddresses)
            .set({ mac: input.mac, updatedAt: new Date() })
            .where(and(eq(deviceAddresses.tenant, input.tenant), eq(deviceAddresses.device, input.name)));
        }
        if (!row) {
          const [inserted] = await tx
            .insert(devices)
            .values({ tenant: input.tenant, name: input.name, trustClass: input.trustClass, mac: input.mac })
            .onConflictDoNothing()
            .returning();
          // A concurrent registration of the same name won: converge on it in the next round.
          if (!inserted) return undefined;
          await audit(tx as unknown as Db, {
            actor: input.actor,
            action: 'device.register',
            tenant: input.tenant,
            object: input.name,
            detail: { mac: input.mac },
          });
          return { kind: 'registered' as const, row: inserted, created: true, holdsAddress: !!held };
        }
        if (row.mac === input.mac) return { kind: 'registered' as const, row, created: false, holdsAddress: !!held };
        const [updated] = await tx
          .update(devices)
          .set({ mac: input.mac, updatedAt: new Date() })
          .where(and(eq(devices.tenant, input.tenant), eq(devices.name, input.name)))
          .returning();
        return { kind: 'registered' as const, row: updated!, created: false, holdsAddress: !!held };
      });
      if (outcome) return outcome;
    } catch (err) {
      // Another device's reservation took this MAC between the check and the update.
      if (isUniqueViolation(err, 'device_addresses_mac')) return refused('mac-holds-address');
      throw err;
    }
    if (attempt >= 3) throw new Error('device registration kept racing a concurrent one');
  }
}

function refused(reason: RegisterRefusal): { kind: 'refused'; reason: RegisterRefusal } {
  return { kind: 'refused', reason };
}

/** Deletes a registry entry; refused while the device holds a fixed address. */
export async function deleteDevice(db: Db, tenant: string, name: string, actor: string): Promise<'deleted' | 'not-found' | 'holds-address'> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(devices)
      .where(and(eq(devices.tenant, tenant), eq(devices.name, name)))
      .for('update');
    if (!row) return 'not-found';
    const [held] = await tx
      .select({ address: deviceAddresses.address })
      .from(deviceAddresses)
      .where(and(eq(deviceAddresses.tenant, tenant), eq(deviceAddresses.device, name)));
    if (held) return 'holds-address';
    await tx.delete(devices).where(and(eq(devices.tenant, tenant), eq(devices.name, name)));
    await audit(tx as unknown as Db, { actor, action: 'device.delete', tenant, object: name });
    return 'deleted';
  });
}
