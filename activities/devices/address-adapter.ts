import type { ObjectOutcome } from '../ensure.js';

/** A fixed address on the shared device network: DHCP always hands `address` to `mac`. */
export interface Reservation {
  /** Lowercase colon form. */
  mac: string;
  address: string;
  /** Host name the DHCP server offers with the address; empty or absent for none. */
  hostname?: string;
}

export type ReservationRef = { mac: string } | { address: string };

export interface DeviceAddressAdapter {
  observe(mac: string): Promise<Reservation | undefined>;
  /**
   * Makes `address` reserved for `mac` and nothing else: adds it, corrects its host name, moves
   * the address to a new MAC when the hardware changed, and drops any other address `mac` held.
   */
  ensure(r: Reservation): Promise<ObjectOutcome[]>;
  /** Idempotent: an absent reservation is fine. */
  remove(ref: ReservationRef): Promise<void>;
  /** Every MAC-keyed reservation of the subnet, the service's and any others. */
  list(): Promise<Reservation[]>;
}
