import { randomUUID } from 'node:crypto';
import { BackendError } from '../../core/backend-outcome.js';
import type { PveApi } from './pve-api.js';

/**
 * Proxmox VE 9's global SDN lock (pve-network 1.1.3, `POST/DELETE /cluster/sdn/lock`), taken by
 * the service only for its own writes and applies. PVE records no owner with a lock, only its
 * token, and a second `POST /cluster/sdn/lock` while one is held dies "could not acquire lock for
 * SDN config: invalid lock token provided!" whoever holds it. So the service keeps every token it
 * takes until it has released it (`SdnLockTokens`: the registry for the worker, this adapter's
 * memory for a caller alone) and releases a held lock only with a token of its own: one left by a
 * worker that died before its release. A lock whose token it never had is another tool's or a
 * person's: it waits for them (the step is retried), and never releases that lock by force.
 * PVE 8 has no lock (501): the service's writes then go without a token.
 */
export interface SdnLockTokens {
  /**
   * A take about to be asked: on record before the call, so a worker that dies while PVE answers
   * leaves a trace that the lock PVE then holds may be its own (`lostTakes`). Returns its marker.
   */
  taking(): Promise<string>;
  /** The take answered: its token on record, its marker gone. */
  taken(token: string, marker: string): Promise<void>;
  /** The take was refused (or the marker is dealt with): the marker gone. */
  abandoned(marker: string): Promise<void>;
  released(token: string): Promise<void>;
  /** The tokens taken and not yet seen released, newest first. */
  held(): Promise<string[]>;
  /** Markers of takes older than `ms` that never answered: their worker died mid-call. */
  lostTakes(ms: number): Promise<string[]>;
}

const MARKER = 'taking:';

/**
 * How old a take that never answered must be before the lock it may have taken is released by
 * force: far past the last moment PVE could still grant it. That is one call's bound (the
 * service's backend timeout) or PVE's own wait for its cluster-file lock (`cfs_lock`, 10 s),
 * whichever is longer; three times that, and never under 30 s. It was a fixed 2 minutes: every
 * create failed "locked by someone else" for that long after a worker died mid-take (the crash
 * test: ~55 s of 502s after its last kill), and a person's lock taken in that time was at risk.
 */
export const lostTakeMs = (callTimeoutMs: number) => Math.max(30_000, 3 * Math.max(callTimeoutMs, PVE_CFS_LOCK_WAIT_MS));
const PVE_CFS_LOCK_WAIT_MS = 10_000;

/** Tokens kept in memory: for a caller alone at the fabric (tests, a single ensure). */
export function memoryLockTokens(): SdnLockTokens {
  const tokens: string[] = [];
  const markers = new Map<string, number>();
  return {
    taking: async () => {
      const marker = `${MARKER}${randomUUID()}`;
      markers.set(marker, Date.now());
      return marker;
    },
    taken: async (t, marker) => {
      markers.delete(marker);
      tokens.unshift(t);
    },
    abandoned: async (marker) => void markers.delete(marker),
    released: async (t) => void tokens.splice(0, tokens.length, ...tokens.filter((x) => x !== t)),
    held: async () => [...tokens],
    lostTakes: async (ms) => [...markers].filter(([, at]) => Date.now() - at > ms).map(([m]) => m),
  };
}

/** A marker's row in the registry's token table: never a token PVE gave. */
export const isTakeMarker = (token: string) => token.startsWith(MARKER);
export const newTakeMarker = () => `${MARKER}${randomUUID()}`;

const LOCK_PATH = '/cluster/sdn/lock';
/** lock_sdn_config's refusal: a lock is held and the call did not carry its token. */
const heldByAnother = (e: unknown): e is BackendError => e instanceof BackendError && /invalid lock token provided/.test(e.detail);

/**
 * Takes the lock and records its token before anything else; undefined where PVE has no lock. A
 * lock held with a token of the service's is released with that token and taken anew; any other
 * holder fails the call, naming what `othersPending` finds staged by others, with what to do.
 */
export async function takeSdnLock(pve: PveApi, tokens: SdnLockTokens, othersPending: () => Promise<string[]>): Promise<string | undefined> {
  let token: string | undefined;
  let marker = await tokens.taking();
  try {
    token = await take(pve);
  } catch (e) {
    await tokens.abandoned(marker);
    if (e instanceof BackendError && e.status === 501) return undefined;
    if (!heldByAnother(e)) throw e;
    if (!(await releaseLeftover(pve, tokens)) && !(await releaseLostTake(pve, tokens))) throw await lockedByOthers(e, othersPending);
    marker = await tokens.taking();
    token = await take(pve).catch(async (again: unknown) => {
      await tokens.abandoned(marker);
      throw again;
    });
  }
  try {
    await tokens.taken(token, marker);
  } catch (e) {
    // Unrecorded, the lock could not be told from another's after a crash: not kept.
    await pve.call('DELETE', LOCK_PATH, { 'lock-token': token }).catch(() => undefined);
    throw e;
  }
  // The lock was free: an old take that never answered did not hold it (or it was released since).
  // Its marker goes, or a person's lock taken later would be mistaken for it.
  for (const stale of await tokens.lostTakes(lostTakeMs(pve.callTimeoutMs))) await tokens.abandoned(stale);
  return token;
}

const take = (pve: PveApi) => pve.call<string>('POST', LOCK_PATH, { 'allow-pending': true });

/**
 * The one lock released without its token: held while a take of the service's never answered
 * (its worker died during the call, after PVE may have granted it) and is older than `lostTakeMs`.
 * That lock is most likely the lost take's, and nothing else would ever release it; a person's lock
 * taken in the same window would be released too, which the docs say. True when one was released.
 */
async function releaseLostTake(pve: PveApi, tokens: SdnLockTokens): Promise<boolean> {
  const lost = await tokens.lostTakes(lostTakeMs(pve.callTimeoutMs));
  if (lost.length === 0) return false;
  await pve.call('DELETE', LOCK_PATH, { force: true });
  for (const marker of lost) await tokens.abandoned(marker);
  return true;
}

/** Releases the service's lock with its token; a failed release leaves the token on record for the next taker. */
export async function releaseSdnLock(pve: PveApi, tokens: SdnLockTokens, token: string | undefined): Promise<void> {
  if (!token) return;
  try {
    await pve.call('DELETE', LOCK_PATH, { 'lock-token': token });
    await tokens.released(token);
  } catch {
    // Released by the next take, with this token (releaseLeftover).
  }
}

/**
 * Tries each recorded token on the held lock: the one that releases it was the service's (its
 * worker died before releasing it). A token PVE refuses is not the held lock's, so that lock of
 * the service's is gone: forgotten. True when one released the lock.
 */
async function releaseLeftover(pve: PveApi, tokens: SdnLockTokens): Promise<boolean> {
  for (const token of await tokens.held()) {
    try {
      await pve.call('DELETE', LOCK_PATH, { 'lock-token': token });
    } catch (e) {
      if (!heldByAnother(e)) throw e;
      await tokens.released(token);
      continue;
    }
    await tokens.released(token);
    return true;
  }
  return false;
}

async function lockedByOthers(e: BackendError, othersPending: () => Promise<string[]>): Promise<BackendError> {
  const pending = await othersPending().catch(() => []);
  const staged = pending.length > 0 ? `; staged by them and not applied: ${pending.join(', ')}` : '';
  return new BackendError(
    'proxmox',
    `the SDN configuration is locked by someone else (PVE's global SDN lock, which the service did not take${staged}): ${e.detail}. ` +
      'The step is retried; once they finish, creates go on. A lock left by a tool that stopped stays until released: ' +
      'if no one is changing SDN, release it with `pvesh delete /cluster/sdn/lock --force 1`',
    true,
  );
}
