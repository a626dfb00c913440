import { audit, UNKNOWN_ACTOR } from '../../db/queries/audit.js';
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
import { LOCK_SPACE, withLocks, type Tx } from '../../db/queries/locks.js';
import type { Db } from '../../db/registry.js';
import { sql } from 'drizzle-orm';
import type { ReleaseResult, ReserveInput } from '../../contracts/device-address.js';
import { chooseAddress, inRange, type AddressChoice } from '../../core/address-ranges.js';
import type { ActivityDeps } from '../deps.js';
import { deriveIdentity } from '../../core/identity.js';
import { taggedWithStep, backendActivity } from '../backend-activity.js';
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
  const { db, log } = deps;
  return {
    /** Registry step of a reserve: refusals are answers; reading the router can fail (`device-address`). */
    async 'device-address.prepare'(input: ReserveInput): Promise<PrepareDeviceAddressResult> {
      return backendActivity(log, { tenant: input.tenant, device: input.device }, 'device-address', () => prepare(deps, input));
    },

    /** Makes the router and DNS match the registry's reservation of one device. */
    async 'device-address.apply'(input: { tenant: string; device: string; parts: DeviceAddressPart[] }): Promise<ObjectOutcome[]> {
      return backendActivity(log, { tenant: input.tenant, device: input.device }, 'device-address', () => apply(deps, input));
    },

    /** Releases a device's address; refused while a published record still points at it. */
    async 'device-address.release'(input: { tenant: string; device: string; actor?: string }): Promise<ReleaseResult> {
      return backendActivity(log, { tenant: input.tenant, device: input.device }, 'device-address', () => release(deps, input));
    },

    /** The device address as the registry holds it, for a failed release's answer. */
    async deviceAddressView(input: { tenant: string; device: string }): Promise<DeviceAddressView | undefined> {
      const [tenant, row] = await Promise.all([zoneOf(deps, input.tenant), getDeviceAddress(db, input.tenant, input.device)]);
      return tenant && row ? viewDeviceAddress(row, tenant.zone) : undefined;
    },
  };
}

async function zoneOf(deps: ActivityDeps, tenant: string): Promise<{ index: number; zone: string } | undefined> {
  const row = await getTenantRow(deps.db, tenant);
  return row ? { index: row.index, zone: deriveIdentity(deps.site, tenant, row.index).zone } : undefined;
}

/** What a reserve decides on: the request, the tenant's zone, the device's mac and trust class, its range, the share. */
interface Reserving {
  input: ReserveInput;
  zone: string;
  mac: string;
  cls: string;
  range: NonNullable<ReturnType<typeof rangeOf>>;
  share: number;
}

/** Picks the address: the one held (converge), the requested one, or the lowest free one. */
async function prepare(deps: ActivityDeps, input: ReserveInput): Promise<PrepareDeviceAddressResult> {
  const { db, site } = deps;
  const tenant = await zoneOf(deps, input.tenant);
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
  const r: Reserving = { input, zone: tenant.zone, mac: device.mac, cls, range, share: site.dhcp?.share ?? 0 };

  // Each pick decides under the device network's lock (claim), so it never loses to another
  // tenant's pick; it goes round again only when a concurrent call for this very device won.
  for (let attempt = 0; attempt < 3; attempt++) {
    const picked = await pick(deps, r);
    if (picked !== 'again') return picked;
  }
  return refuse('conflict', 'the address is taken');
}

const viewOf = (r: Reserving, row: DeviceAddressRow): PrepareDeviceAddressResult => ({ kind: 'proceed', reservation: viewDeviceAddress(row, r.zone) });

/** One pick of prepare's: its answer, or `again` when a concurrent call for this device won. */
async function pick(deps: ActivityDeps, r: Reserving): Promise<PrepareDeviceAddressResult | 'again'> {
  const { db, log } = deps;
  const { input, range } = r;
  const held = await getDeviceAddress(db, input.tenant, input.device);
  if (held)
    return input.address !== undefined && input.address !== held.address
      ? refuse('bad_request', 'the device already holds a different address; release it first')
      : viewOf(r, held);
  if (input.address !== undefined && !inRange(range, input.address)) return choiceRefusal('outside-range', r.cls, r.share);
  // Read before the lock (a router call is slow); what the registry holds is read under it.
  const router = await taggedWithStep('device-address', () => deps.ports.deviceAddress!.list());
  const claimed = await withLocks(db, async (tx, lock) => {
    // The name is claimed with the address under the tenant's names lock: a workload or a record
    // of this name registered since prepare's check wins (docs/decisions.md).
    await lock(LOCK_SPACE.names, input.tenant);
    // One pick at a time across all tenants (docs/decisions.md): a pick from a registry read that
    // a concurrent insert made stale lost on the unique address and retried a bounded number of times.
    await lock(LOCK_SPACE.deviceNetwork, 'device-network');
    return claim(tx, r, router);
  });
  if (claimed.kind === 'inserted') {
    log.info({ tenant: input.tenant, device: input.device, address: claimed.row.address }, 'device address reserved');
    return viewOf(r, claimed.row);
  }
  return claimed.kind === 'exists' ? 'again' : claimed;
}

type Claim = { kind: 'inserted'; row: DeviceAddressRow } | { kind: 'exists' } | Refusal;

/**
 * Chooses and inserts the address, under the device network's lock: every reservation the
 * registry holds is read here, so the choice is never stale. Reservations on the router the
 * registry does not hold (the site's own, or a registry restored from an older state) are taken
 * too; one for this very MAC in range is adopted.
 */
async function claim(tx: Tx, r: Reserving, router: { mac: string; address: string }[]): Promise<Claim> {
  const { input, range, cls, share } = r;
  const registry = await allDeviceAddresses(tx);
  if (registry.some((x) => x.mac === r.mac)) return refuse('conflict', MAC_HOLDS);
  const known = new Set(registry.map((x) => x.address));
  const foreign = router.filter((x) => !known.has(x.address));
  let requested = input.address;
  const ofMac = foreign.find((x) => x.mac === r.mac);
  if (ofMac) {
    if (!inRange(range, ofMac.address) || (requested !== undefined && requested !== ofMac.address)) return refuse('conflict', MAC_HOLDS);
    requested = ofMac.address;
  }
  const choice = chooseAddress({
    range,
    taken: [...known, ...foreign.filter((x) => x !== ofMac).map((x) => x.address)],
    heldByTenant: registry.filter((x) => x.tenant === input.tenant).length,
    share,
    requested,
  });
  if (!choice.ok) return choiceRefusal(choice.reason, cls, share);
  if (await nameUsedByWorkloadOrRecord(tx as unknown as Db, input.tenant, input.device)) {
    return refuse('bad_request', `the name "${input.device}" is already a workload's or a record's`);
  }
  const inserted = await insertDeviceAddress(tx as unknown as Db, {
    tenant: input.tenant,
    device: input.device,
    trustClass: cls,
    address: choice.address,
    mac: r.mac,
  });
  // A published name and who asked for it, in the transaction that reserves it.
  if (inserted.kind === 'inserted') {
    await audit(tx as unknown as Db, {
      actor: input.actor ?? UNKNOWN_ACTOR,
      action: 'device-address.reserve',
      tenant: input.tenant,
      object: `${input.device}.${r.zone}`,
      detail: { address: choice.address },
    });
  }
  switch (inserted.kind) {
    case 'mac-taken':
      return refuse('conflict', MAC_HOLDS);
    case 'address-taken':
      // Only a write that took no lock (none does) could get here: the address is someone's.
      return choiceRefusal('taken', cls, share);
    default:
      return inserted;
  }
}

async function apply(deps: ActivityDeps, input: { tenant: string; device: string; parts: DeviceAddressPart[] }): Promise<ObjectOutcome[]> {
  const tenant = await zoneOf(deps, input.tenant);
  if (!tenant) return [];
  const outcomes = await ensureDeviceAddress(deps, { tenant: input.tenant, index: tenant.index, device: input.device, parts: input.parts });
  const changed = outcomes.filter((o) => o.result !== 'in-place');
  if (changed.length) deps.log.info({ tenant: input.tenant, device: input.device, changed }, 'device address backends corrected');
  // The step's outcome, in the run's history: the reservation's says how many changes its write carried.
  return outcomes;
}

async function release(deps: ActivityDeps, input: { tenant: string; device: string; actor?: string }): Promise<ReleaseResult> {
  const tenant = await zoneOf(deps, input.tenant);
  if (!tenant) return refuse('not_found', 'tenant not found');
  const done = await removeDeviceAddress(deps, { tenant: input.tenant, index: tenant.index, device: input.device }, async (tx, row) => {
    // Under the tenant's names lock, held to the end of the release: a record put on the
    // address either is saved before (and refuses this release) or sees the address gone.
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE.names}::int, hashtext(${input.tenant}))`);
    if (await recordPointsAt(tx, input.tenant, row.address)) return refuse('bad_request', 'a published record still points at the address');
    // Written with the removal, which this transaction holds to its end.
    await audit(tx as unknown as Db, { actor: input.actor ?? UNKNOWN_ACTOR, action: 'device-address.release', tenant: input.tenant, object: input.device });
    return undefined;
  });
  if (done.kind === 'absent') return refuse('not_found', 'the device holds no fixed address');
  if (done.kind === 'refused') return done.refusal;
  deps.log.info({ tenant: input.tenant, device: input.device }, 'device address released');
  return { kind: 'released' as const };
}
