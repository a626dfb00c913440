import type { ObjectOutcome } from '../../core/backend-outcome.js';
import type { ChangeResult } from '../../core/backend-outcome.js';

/** A fixed address on the shared device network: DHCP always hands `address` to `mac`. */
export interface Reservation {
  /** Lowercase colon form. */
  mac: string;
  address: string;
  /** Host name the DHCP server offers with the address; empty or absent for none. */
  hostname?: string;
}

export type ReservationRef = { mac: string } | { address: string };

/** One caller's change to the router's reservations: what `ensure` or `remove` does. */
export type ReservationChange = { kind: 'ensure'; reservation: Reservation } | { kind: 'remove'; ref: ReservationRef };

export interface DeviceAddressAdapter {
  observe(mac: string): Promise<Reservation | undefined>;
  /**
   * Makes `address` reserved for `mac` and nothing else: adds it, corrects its host name, moves
   * the address to a new MAC when the hardware changed, and drops any other address `mac` held.
   */
  ensure(r: Reservation): Promise<ObjectOutcome[]>;
  /** What ensure of each would report, from one read of the reservations. */
  plan(wanted: Reservation[]): Promise<ObjectOutcome[]>;
  /** Idempotent: an absent reservation is fine. */
  remove(ref: ReservationRef): Promise<void>;
  /**
   * Several changes in one write of the router's configuration (group commit): one result per
   * change, in order, each confirmed in the router's own answer; a change the router refuses fails
   * alone. A failure of the write as such throws.
   */
  write(changes: ReservationChange[]): Promise<Array<ChangeResult<ObjectOutcome[]>>>;
  /** Every MAC-keyed reservation of the subnet, the service's and any others. */
  list(): Promise<Reservation[]>;
}

/**
 * What differs of a reservation from what the router holds (MACs in lowercase colon form): the
 * `mac` holding its address, its `hostname`, an `other address` its MAC also holds. `existed`:
 * the router held its address or its MAC.
 */
export function reservationDrift(list: readonly Reservation[], wanted: Reservation): { existed: boolean; fields: string[] } {
  const atAddress = list.find((r) => r.address === wanted.address);
  const ofMac = list.filter((r) => r.mac === wanted.mac && r !== atAddress);
  const fields = [
    ...(atAddress && atAddress.mac !== wanted.mac ? ['mac'] : []),
    ...(atAddress && (atAddress.hostname ?? '') !== (wanted.hostname ?? '') ? ['hostname'] : []),
    ...(ofMac.length > 0 ? ['other address'] : []),
  ];
  return { existed: !!atAddress || ofMac.length > 0, fields: atAddress ? fields : ofMac.length ? ['address'] : [] };
}
