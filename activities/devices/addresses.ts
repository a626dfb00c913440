import { deleteDeviceAddress, getDeviceAddress, listDeviceAddresses, type DeviceAddressRow } from '../../db/queries/device-addresses.js';
import { LOCK_SPACE, withLocks, type Tx } from '../../db/queries/locks.js';
import type { ObjectOutcome } from '../../core/backend-outcome.js';
import { committers, GroupCommit } from '../group-commit.js';
import type { DeviceAddressAdapter, ReservationChange } from '../../backends/kea/address-adapter.js';
import type { ActivityDeps } from '../deps.js';
import { deriveIdentity } from '../../core/identity.js';
import { taggedWithStep } from '../backend-activity.js';
import { leftAlone, mayCorrect } from '../../core/object-life.js';
import { objectPath } from '../../contracts/ids.js';
import { livesOf } from '../object-lives.js';

/**
 * The backend side of one reservation: the MAC-keyed reservation on the router's DHCP server and
 * `<device>.<tenant zone>` (an A record, no PTR: the address is not in the tenant's subnet).
 * Every change runs holding the device's lock. The router's configuration is one whole object,
 * written by a group commit (issue 32): a change is staged while a write of it runs, and the next
 * write carries every change staged by then, under the router's registry lock so workers on
 * several hosts never lose one another's reservation. No lock is needed to stage: the change is
 * decided from the device's own row, which its lock holds still.
 */
export type DeviceAddressPart = 'dhcp' | 'dns';

const ROUTER = 'router';

/** How long a device's change waits for the other workers' writes of the router before it fails (retried). */
export const ROUTER_WAIT_MS = 60_000;

const routerCommit = committers<DeviceAddressAdapter, ReservationChange, ObjectOutcome[]>(
  (dhcp) => new GroupCommit({ space: LOCK_SPACE.dhcp, key: ROUTER, waitMs: ROUTER_WAIT_MS, what: 'dhcp' }, (changes) => dhcp.write(changes)),
);

/**
 * One change of the router's reservations, carried by the next write of its configuration; ends
 * when the router's answer holds it. The reservation's outcome says how many changes the write carried.
 */
async function onRouter(dhcp: DeviceAddressAdapter, tx: Tx, change: ReservationChange): Promise<ObjectOutcome[]> {
  const { value, objects } = await routerCommit(dhcp, ROUTER).submit(tx, change);
  return value.map((o) => ({ ...o, batch: { objects } }));
}

export const deviceLockKey = (tenant: string, device: string) => `${tenant}/${device}`;

export function deviceFqdn(deps: Pick<ActivityDeps, 'site'>, tenant: string, index: number, device: string): { zone: string; name: string } {
  const zone = deriveIdentity(deps.site, tenant, index).zone;
  return { zone, name: `${device}.${zone}` };
}

async function ensureOne(deps: ActivityDeps, tx: Tx, row: DeviceAddressRow, index: number, parts: readonly DeviceAddressPart[]): Promise<ObjectOutcome[]> {
  const outcomes: ObjectOutcome[] = [];
  const dhcp = deps.ports.deviceAddress;
  if (parts.includes('dhcp')) {
    outcomes.push(
      ...(await taggedWithStep('device-address', async () => {
        if (!dhcp) throw new Error('no DHCP server is configured at this site');
        return onRouter(dhcp, tx, { kind: 'ensure', reservation: { mac: row.mac, address: row.address, hostname: row.device } });
      })),
    );
  }
  if (parts.includes('dns')) {
    const { zone, name } = deviceFqdn(deps, row.tenant, index, row.device);
    outcomes.push(await taggedWithStep('dns', () => deps.ports.dns.ensureRecord({ zone, name, type: 'A', content: row.address })));
  }
  return outcomes;
}

/** Brings one device's reservation to what the registry holds; nothing when it holds none. */
export async function ensureDeviceAddress(
  deps: ActivityDeps,
  input: { tenant: string; index: number; device: string; parts: readonly DeviceAddressPart[] },
): Promise<ObjectOutcome[]> {
  return withLocks(deps.db, async (tx, lock) => {
    await lock(LOCK_SPACE.device, deviceLockKey(input.tenant, input.device));
    const row = await getDeviceAddress(tx, input.tenant, input.device);
    return row ? ensureOne(deps, tx, row, input.index, input.parts) : [];
  });
}

/**
 * Every reservation of a tenant (reconcile: a reservation lost on the router comes back). A site
 * that no longer configures a DHCP server keeps only the names. A device address a run holds (its
 * reserve parked after a failed step, a release in flight) is `in-flight`: neither its reservation
 * nor its name is written, for that run to finish.
 */
export async function ensureTenantDeviceAddresses(deps: ActivityDeps, tenant: string, index: number): Promise<ObjectOutcome[]> {
  // One read of the router and one of the zone decide what is in place (the plan); only what is
  // not goes through the locked ensure of its device, which reads and writes again.
  const { rows, planned } = await plannedAddresses(deps, tenant, index);
  const outcomes: ObjectOutcome[] = [];
  for (const [i, row] of rows.entries()) {
    const mine = planned[i]!;
    if (row.left || mine.every((o) => o.result === 'in-place')) outcomes.push(...mine);
    else
      outcomes.push(...(await ensureDeviceAddress(deps, { tenant, index, device: row.device, parts: deps.ports.deviceAddress ? ['dhcp', 'dns'] : ['dns'] })));
  }
  return outcomes;
}

/** What ensureTenantDeviceAddresses would report: one read of the router, one of the zone; nothing written. */
export async function planTenantDeviceAddresses(deps: ActivityDeps, tenant: string, index: number): Promise<ObjectOutcome[]> {
  return (await plannedAddresses(deps, tenant, index)).planned.flat();
}

/**
 * Each device address of the tenant with what its ensure would report (its reservation, then its
 * name), and whether a run holds it or left it unfinished (`left`: reported so, never written).
 */
async function plannedAddresses(
  deps: ActivityDeps,
  tenant: string,
  index: number,
): Promise<{ rows: (DeviceAddressRow & { left: boolean })[]; planned: ObjectOutcome[][] }> {
  const lives = await livesOf(deps, tenant);
  const rows = (await listDeviceAddresses(deps.db, tenant)).map((row) => ({
    ...row,
    life: lives(objectPath.deviceAddress(tenant, row.device), { registered: true, finished: true }),
  }));
  const flat = await planDeviceAddresses(deps, tenant, index, rows);
  const perDevice = deps.ports.deviceAddress ? 2 : 1;
  const planned = rows.map((row, i) => {
    const mine = flat.slice(i * perDevice, (i + 1) * perDevice);
    return mayCorrect(row.life) ? mine : mine.map((o) => leftAlone(o.object, row.life)!);
  });
  return { rows: rows.map(({ life, ...row }) => ({ ...row, left: !mayCorrect(life) })), planned };
}

async function planDeviceAddresses(deps: ActivityDeps, tenant: string, index: number, rows: DeviceAddressRow[]): Promise<ObjectOutcome[]> {
  if (rows.length === 0) return [];
  const dhcp = deps.ports.deviceAddress;
  const reservations = dhcp ? await dhcp.plan(rows.map((r) => ({ mac: r.mac, address: r.address, hostname: r.device }))) : [];
  const { zone } = deviceFqdn(deps, tenant, index, '');
  const names = await deps.ports.dns.planRecords(
    zone,
    rows.map((r) => ({ zone, name: deviceFqdn(deps, tenant, index, r.device).name, type: 'A', content: r.address })),
  );
  // In ensure's order: each device's reservation, then its name.
  return rows.flatMap((_, i) => [...(dhcp ? [reservations[i]!] : []), names[i]!]);
}

/**
 * Removes a reservation from the backends and then from the registry, in one locked run. The
 * name goes first, so no published name points at an address DHCP no longer holds for it.
 * `check` may refuse (inside the lock) before anything is removed.
 */
export async function removeDeviceAddress<R>(
  deps: ActivityDeps,
  input: { tenant: string; index: number; device: string },
  check: (tx: Tx, row: DeviceAddressRow) => Promise<R | undefined> = async () => undefined,
): Promise<{ kind: 'removed' } | { kind: 'absent' } | { kind: 'refused'; refusal: R }> {
  return withLocks(deps.db, async (tx, lock) => {
    await lock(LOCK_SPACE.device, deviceLockKey(input.tenant, input.device));
    const row = await getDeviceAddress(tx, input.tenant, input.device);
    if (!row) return { kind: 'absent' as const };
    const refusal = await check(tx, row);
    if (refusal !== undefined) return { kind: 'refused' as const, refusal };
    const { zone, name } = deviceFqdn(deps, input.tenant, input.index, input.device);
    await taggedWithStep('dns', () => deps.ports.dns.removeRecord({ zone, name, type: 'A' }));
    const dhcp = deps.ports.deviceAddress;
    if (dhcp) {
      await taggedWithStep('device-address', async () => {
        await onRouter(dhcp, tx, { kind: 'remove', ref: { address: row.address } });
      });
    }
    await deleteDeviceAddress(tx, input.tenant, input.device);
    return { kind: 'removed' as const };
  });
}

/** Tenant delete: every reservation of the tenant leaves the router, its name and the registry. */
export async function removeTenantDeviceAddresses(deps: ActivityDeps, tenant: string, index: number): Promise<void> {
  for (const row of await listDeviceAddresses(deps.db, tenant)) {
    await removeDeviceAddress(deps, { tenant, index, device: row.device });
  }
}
