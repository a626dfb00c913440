import type { Refusal } from '../../core/refusal.js';
import type { ObjectOutcome } from '../../core/backend-outcome.js';
import { getDevice } from '../../db/queries/devices.js';
import {
  allDeviceAddresses,
  getDeviceAddress,
  insertDeviceAddress,
  nameUsedByWorkloadOrRecord,
  recordPointsAt,
  type DeviceAddressRow,
} from '../../db/queries/device-addresses.js';
import { getTenantRow } from '../../db/queries/tenants.js';
import { LOCK_SPACE, withLocks } from '../../db/queries/locks.js';
import type { Db } from '../../db/registry.js';
import { sql } from 'drizzle-orm';
import type { ReleaseResult, ReserveInput } from '../../contracts/device-address.js';
import { chooseAddress, inRange, rangeSize, type AddressChoice } from '../../core/address-ranges.js';
import type { ActivityDeps } from '../deps.js';
import { deriveIdentity } from '../../core/identity.js';
import { taggedWithStep, backendActivity } from './backend.js';
import { ensureDeviceAddress, removeDeviceAddress, type DeviceAddressPart } from './addresses.js';
import { isServed, rangeOf, unservedReason } from '../../core/trust-class.js';
import type { DeviceAddressView } from '../../core/views/device.js';
import { viewDeviceAddress } from '../../db/views/device.js';

export type PrepareDeviceAddressResult = { kind: 'proceed'; reservation: DeviceAddressView } | Refusal;

const refuse = (error: Refusal['error'], message: string): Refusal => ({ kind: 'refused', error, message });

const MAC_HOLDS = "the device's mac already holds an address on the device network";

function choiceRefusal(reason: Extract<AddressChoice, { ok: false }>['reason'], cls: string, share: number): Refusal {
  switch (reason) {
    case 'not-an-address':
      return refuse('bad_request', 'address: must be an IPv4 address');
    case 'outside-range':
      return refuse('bad_request', `address is outside the tenant range of trust class "${cls}"`);
    case 'taken':
      return refuse('conflict', 'the address is taken');
    case 'range-full':
      return refuse('conflict', `the tenant range of trust class "${cls}" is full`);
    case 'share-full':
      return refuse('conflict', `the tenant holds its full share of device addresses (${share})`);
  }
}

/**
 * Fixed device addresses: choosing one (registry, reading the router for reservations it holds
 * that the registry does not), making it on the router and publishing the name, and releasing it.
 */
export function deviceActivities(deps: ActivityDeps) {
  const { db, site, log } = deps;

  async function zoneOf(tenant: string): Promise<{ index: number; zone: string } | undefined> {
    const row = await getTenantRow(db, tenant);
    return row ? { index: row.index, zone: deriveIdentity(site, tenant, row.index).zone } : undefined;
  }

  /** Picks the address: the one held (converge), the requested one, or the lowest free one. */
  async function prepare(input: ReserveInput): Promise<PrepareDeviceAddressResult> {
    const tenant = await zoneOf(input.tenant);
    if (!tenant) return refuse('not_found', 'tenant not found');
    const device = await getDevice(db, input.tenant, input.device);
    if (!device) return refuse('bad_request', 'device is not registered');
    if (!device.mac) return refuse('bad_request', 'device has no mac; register it with its mac first');
    const cls = device.trustClass;
    if (!isServed(site.trustClasses, cls)) return refuse('bad_request', unservedReason(site.trustClasses, cls));
    const range = rangeOf(site.trustClasses, cls);
    if (!range) return refuse('bad_request', `trust class "${cls}" has no address range at this site`);
    if (await nameUsedByWorkloadOrRecord(db, input.tenant, input.device)) {
      return refuse('bad_request', `the name "${input.device}" is already a workload's or a record's`);
    }
    const share = site.dhcp?.share ?? 0;
    const view = (row: DeviceAddressRow): PrepareDeviceAddressResult => ({ kind: 'proceed', reservation: viewDeviceAddress(row, tenant.zone) });
    const converge = (held: DeviceAddressRow): PrepareDeviceAddressResult =>
      input.address !== undefined && input.address !== held.address
        ? refuse('bad_request', 'the device already holds a different address; release it first')
        : view(held);

    // Each lost pick means another reservation of the range committed, so picking again converges:
    // at worst once per address of the range (a fixed bound of 8 let the ninth of ten concurrent
    // reservations from one shared range answer 'the address is taken' with addresses still free).
    const attempts = rangeSize(range) + 2;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const held = await getDeviceAddress(db, input.tenant, input.device);
      if (held) return converge(held);
      if (input.address !== undefined && !inRange(range, input.address)) return choiceRefusal('outside-range', cls, share);
      const registry = await allDeviceAddresses(db);
      if (registry.some((r) => r.mac === device.mac)) return refuse('conflict', MAC_HOLDS);
      // Reservations on the router the registry does not hold (the site's own, or a registry
      // restored from an older state) are taken too; one for this very MAC in range is adopted.
      const router = await taggedWithStep('device-address', () => deps.ports.deviceAddress!.list());
      const known = new Set(registry.map((r) => r.address));
      const foreign = router.filter((r) => !known.has(r.address));
      let requested = input.address;
      const ofMac = foreign.find((r) => r.mac === device.mac);
      if (ofMac) {
        if (!inRange(range, ofMac.address) || (requested !== undefined && requested !== ofMac.address)) return refuse('conflict', MAC_HOLDS);
        requested = ofMac.address;
      }
      const choice = chooseAddress({
        range,
        taken: [...known, ...foreign.filter((r) => r !== ofMac).map((r) => r.address)],
        heldByTenant: registry.filter((r) => r.tenant === input.tenant).length,
        share,
        requested,
      });
      if (!choice.ok) return choiceRefusal(choice.reason, cls, share);
      // The name is claimed with the address, under the tenant's names lock: a workload or a
      // record of this name registered since the check above wins (docs/decisions.md).
      const mac = device.mac;
      const inserted = await withLocks(db, async (tx, lock) => {
        await lock(LOCK_SPACE.names, input.tenant);
        if (await nameUsedByWorkloadOrRecord(tx as unknown as Db, input.tenant, input.device)) return { kind: 'name-taken' as const };
        return insertDeviceAddress(tx as unknown as Db, { tenant: input.tenant, device: input.device, trustClass: cls, address: choice.address, mac });
      });
      switch (inserted.kind) {
        case 'inserted':
          log.info({ tenant: input.tenant, device: input.device, address: choice.address }, 'device address reserved');
          return view(inserted.row);
        case 'mac-taken':
          return refuse('conflict', MAC_HOLDS);
        case 'name-taken':
          return refuse('bad_request', `the name "${input.device}" is already a workload's or a record's`);
        case 'address-taken':
          if (requested !== undefined) return choiceRefusal('taken', cls, share);
          continue; // a concurrent reservation took the lowest free address: choose again
        case 'exists':
          continue; // a concurrent call for this device won: converge on its address
      }
    }
    return refuse('conflict', 'the address is taken');
  }

  return {
    /** Registry step of a reserve: refusals are answers; reading the router can fail (`device-address`). */
    async 'device-address.prepare'(input: ReserveInput): Promise<PrepareDeviceAddressResult> {
      return backendActivity(log, { tenant: input.tenant, device: input.device }, 'device-address', () => prepare(input));
    },

    /** Makes the router and DNS match the registry's reservation of one device. */
    async 'device-address.apply'(input: { tenant: string; device: string; parts: DeviceAddressPart[] }): Promise<ObjectOutcome[]> {
      return backendActivity(log, { tenant: input.tenant, device: input.device }, 'device-address', async () => {
        const tenant = await zoneOf(input.tenant);
        if (!tenant) return [];
        const outcomes = await ensureDeviceAddress(deps, { tenant: input.tenant, index: tenant.index, device: input.device, parts: input.parts });
        const changed = outcomes.filter((o) => o.result !== 'in-place');
        if (changed.length) log.info({ tenant: input.tenant, device: input.device, changed }, 'device address backends corrected');
        // The step's outcome, in the run's history: the reservation's says how many changes its write carried.
        return outcomes;
      });
    },

    /** Releases a device's address; refused while a published record still points at it. */
    async 'device-address.release'(input: { tenant: string; device: string }): Promise<ReleaseResult> {
      return backendActivity(log, { tenant: input.tenant, device: input.device }, 'device-address', async () => {
        const tenant = await zoneOf(input.tenant);
        if (!tenant) return refuse('not_found', 'tenant not found');
        const done = await removeDeviceAddress(deps, { tenant: input.tenant, index: tenant.index, device: input.device }, async (tx, row) => {
          // Under the tenant's names lock, held to the end of the release: a record put on the
          // address either is saved before (and refuses this release) or sees the address gone.
          await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE.names}::int, hashtext(${input.tenant}))`);
          return (await recordPointsAt(tx, input.tenant, row.address)) ? refuse('bad_request', 'a published record still points at the address') : undefined;
        });
        if (done.kind === 'absent') return refuse('not_found', 'the device holds no fixed address');
        if (done.kind === 'refused') return done.refusal;
        log.info({ tenant: input.tenant, device: input.device }, 'device address released');
        return { kind: 'released' as const };
      });
    },

    /** The device address as the registry holds it, for a failed release's answer. */
    async deviceAddressView(input: { tenant: string; device: string }): Promise<DeviceAddressView | undefined> {
      const [tenant, row] = await Promise.all([zoneOf(input.tenant), getDeviceAddress(db, input.tenant, input.device)]);
      return tenant && row ? viewDeviceAddress(row, tenant.zone) : undefined;
    },
  };
}
