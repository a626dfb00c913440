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
  /** The fabric's SDN configuration: one tenant's network written and applied at a time. */
  fabric: 7240105,
  /** One tenant: its leases (tenant-leases.ts) and its name and address claims are decided one at a time. */
  tenant: 7240106,
  /** One tenant's names and addresses: a name is a workload's, a record's or a device's, never two; a released address has no record on it. */
  names: 7240107,
  /** The log gateway's route list: one tenant's routes written at a time (activities/log-store/step.ts). */
  logGateway: 7240108,
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

/**
 * Takes a transaction-scoped advisory lock, waiting up to `withinMs` for another holder to finish:
 * polled with pg_try_advisory_xact_lock, so a long wait is not cut short by the registry's
 * statement timeout (the holder may be a slow backend write of several seconds). False when the
 * bound passed.
 */
export async function lockWithin(tx: Tx, space: number, key: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (let pause = 25; ; pause = Math.min(pause * 2, 250)) {
    const [row] = (await tx.execute(sql`select pg_try_advisory_xact_lock(${space}::int, hashtext(${key})) as locked`)) as unknown as { locked: boolean }[];
    if (row?.locked) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pause));
  }
}
