import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { pgError } from './unique.js';

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
  /** One WLAN's key list, by SSID: held by the write that carries the staged changes (activities/wifi/keys.ts). */
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
  /** One WLAN's keys as the registry holds them, by SSID: a change is decided and staged under it (activities/wifi/keys.ts). */
  wlanStage: 7240109,
  /** The shared device network: one reservation chosen and inserted at a time, over every tenant and trust class. */
  deviceNetwork: 7240110,
  /** The site's tenant indexes (1..62): one new tenant's index chosen and inserted at a time. */
  tenantIndex: 7240111,
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
 * Takes a transaction-scoped advisory lock, waiting up to `withinMs` for another holder to finish.
 * PostgreSQL queues the waiters and wakes the next one the moment the holder's transaction ends
 * (polling with pg_try_advisory_xact_lock handed the lock on up to 250 ms late, which a queue of
 * tenants at the fabric paid once each). The wait's bound is the transaction's own `lock_timeout`
 * and `statement_timeout`, set for this statement only, so the registry's 15 s statement timeout
 * does not cut a long wait short (the holder may be a slow backend write of several seconds). A
 * savepoint keeps the transaction usable when the bound passes. False when it did.
 */
export async function lockWithin(tx: Tx, space: number, key: string, withinMs: number): Promise<boolean> {
  if (await takenAtOnce(tx, sql`select pg_try_advisory_xact_lock(${space}::int, hashtext(${key})) as taken`)) return true;
  if (!(await takeWithin(tx, sql`select pg_advisory_xact_lock(${space}::int, hashtext(${key}))`, withinMs))) return false;
  await resetTimeouts(tx);
  return true;
}

/**
 * A free lock in one round trip, where the bounded wait costs four more (its savepoint, its
 * timeouts, their reset): most takes find the lock free. A held lock is refused here and waited
 * for in the queue as before; a conditional take never overtakes a queued waiter (PostgreSQL
 * refuses it when it conflicts with a waiter's request, as with a holder's).
 */
async function takenAtOnce(tx: Tx, take: SQL): Promise<boolean> {
  const [row] = (await tx.execute(take)) as unknown as { taken: boolean }[];
  return row!.taken;
}

/**
 * Waits up to `withinMs` until no one holds the lock exclusively, without taking it: a shared
 * take, released at once. PostgreSQL grants the shared waiters queued behind a holder together
 * when it ends, so they go on at once rather than one after another. Answers whether it was held
 * (`held`: its holder has ended since), `free` when no one held it, or `timed-out`.
 */
export async function untilUnheld(db: Db, space: number, key: string, withinMs: number): Promise<'free' | 'held' | 'timed-out'> {
  // Free: asked in one statement, its own transaction, which releases the shared take as it ends.
  const [now] = (await db.execute(sql`select pg_try_advisory_xact_lock_shared(${space}::int, hashtext(${key})) as free`)) as unknown as { free: boolean }[];
  if (now!.free) return 'free';
  return withLocks(db, async (tx) =>
    (await takeWithin(tx, sql`select pg_advisory_xact_lock_shared(${space}::int, hashtext(${key}))`, withinMs)) ? 'held' : 'timed-out',
  );
}

/**
 * Runs `take` (a lock's statement) in a savepoint whose waits are bounded by `withinMs`
 * (`lock_timeout`; `statement_timeout` 5 s beyond it). False when the wait passed the bound.
 */
async function takeWithin(tx: Tx, take: SQL, withinMs: number): Promise<boolean> {
  const ms = Math.max(1, Math.floor(withinMs));
  try {
    await tx.transaction(async (sp) => {
      await sp.execute(sql`select set_config('lock_timeout', ${String(ms)}, true), set_config('statement_timeout', ${String(ms + 5_000)}, true)`);
      await sp.execute(take);
    });
  } catch (e) {
    // The savepoint rolled back, and its settings with it: the transaction goes on as it was.
    // lock_not_available: the wait passed `lock_timeout`.
    if (pgError(e, '55P03')) return false;
    throw e;
  }
  return true;
}

/** The released savepoint's settings last to the transaction's end: the rest of it runs under the session's. */
async function resetTimeouts(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config(name, reset_val, true) from pg_settings where name in ('lock_timeout', 'statement_timeout')`);
}

/**
 * Runs `work` holding an advisory lock for its duration only, inside a transaction that goes on
 * after it: a session-level lock, taken on the transaction's own connection (a second connection
 * per holder could exhaust the pool while the waiters hold the rest) and released when `work`
 * ends. It conflicts with `pg_advisory_xact_lock` on the same key, so holders of either kind
 * exclude each other; it dies with the connection, as a transaction's lock does. False (and
 * `work` not run) when the wait passed `withinMs`.
 */
export async function whileLocked<T>(
  tx: Tx,
  space: number,
  key: string,
  withinMs: number,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const atOnce = await takenAtOnce(tx, sql`select pg_try_advisory_lock(${space}::int, hashtext(${key})) as taken`);
  if (!atOnce && !(await takeWithin(tx, sql`select pg_advisory_lock(${space}::int, hashtext(${key}))`, withinMs))) return { ran: false };
  // Unlike a transaction's, a session lock outlives the savepoint that took it: only this releases it.
  try {
    if (!atOnce) await resetTimeouts(tx);
    return { ran: true, value: await work() };
  } finally {
    await tx.execute(sql`select pg_advisory_unlock(${space}::int, hashtext(${key}))`).catch(() => undefined);
  }
}
