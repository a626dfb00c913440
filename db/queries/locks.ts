import { sql } from 'drizzle-orm';
import type { Db } from '../registry.js';

/** A transaction of the registry, usable wherever the queries take `Db`-like executors. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The registry or one of its transactions. */
export type Executor = Db | Tx;

/**
 * Lock spaces for PostgreSQL advisory locks. Backends whose changes are a read-modify-write of
 * one document (Kea's configuration, a UniFi WLAN's key list) have no conditional update, so
 * workers on several hosts take the same lock around each change.
 */
export const LOCK_SPACE = {
  /** The router's DHCP configuration: one lock for every reservation. */
  dhcp: 7240101,
  /** One WLAN's key list, by SSID. */
  wlan: 7240102,
  /** One device's address: reserve, move and release never interleave. */
  device: 7240103,
  /** Wi-Fi keys restored with a supplied psk: the check that no other key holds it, and the write. */
  wifiRestore: 7240104,
  /** One tenant: its leases (tenant-leases.ts) and its name and address claims are decided one at a time. */
  // 7240105 is the fabric's SDN lock (issue 16b, merged beside this).
  tenant: 7240106,
  /** One tenant's names and addresses: a name is a workload's, a record's or a device's, never two; a released address has no record on it. */
  names: 7240107,
} as const;

export type Lock = (space: number, key: string) => Promise<void>;

/**
 * Runs `work` in one registry transaction in which it takes transaction-scoped advisory locks
 * (`lock(space, key)`); they are released when the transaction ends, also when the worker dies.
 * Everything the work reads or writes goes through `tx`, so the whole run holds one connection.
 * Waiting for a lock is bounded by the registry's statement timeout.
 */
export async function withLocks<T>(db: Db, work: (tx: Tx, lock: Lock) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const lock: Lock = async (space, key) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${space}::int, hashtext(${key}))`);
    };
    return work(tx, lock);
  });
}
