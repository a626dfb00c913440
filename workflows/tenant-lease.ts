import { CancellationScope, proxyLocalActivities, sleep } from '@temporalio/workflow';
import { begunWith } from './patches.js';
import type { Activities } from '../activities/index.js';
import { LEASE_RELEASE_OPTIONS, REGISTRY_OPTIONS } from './activity-options.js';
import { upsertMemo } from '@temporalio/workflow';
import type { Refusal } from '../core/refusal.js';
import { answering, claimObject, leasesReleasedWithSettle, objectClaimedWithLease, objectClaimPending, type Answered } from './run-step.js';
import type { LeasesClaimed, LeaseWanted } from '../activities/tenant/leases.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);
const leases = proxyLocalActivities<Activities>(LEASE_RELEASE_OPTIONS);

/** Releases the run's lease whatever happens to the run meanwhile (also while it is being cancelled). */
const release = (tenant: string) => CancellationScope.nonCancellable(() => leases.releaseTenant({ tenant }));

/** How long a run waits for another run on the same tenant before it refuses (409, repeat). */
export const LEASE_WAIT_MS = 120_000;
const POLL_MS = 250;
/** The longest pause between two claims of a run that waits (a run begun with `lease-poll-backoff`). */
const POLL_MAX_MS = 2_000;

/**
 * The pause after the `polls`-th refused claim: 250 ms four times, then doubling every four claims
 * up to 2 s. A holder that ends within a few seconds (most: one attempt of a run) is met within
 * half a second, and a run that waits the whole bound claims 70 times instead of 481 (a local
 * activity and a workflow task each, on the worker and on Temporal's server).
 */
export const leasePollPause = (polls: number): number => Math.min(POLL_MAX_MS, POLL_MS * 2 ** Math.floor(polls / 4));

/** A create attempt, a reconcile or a delete hold a tenant alone; runs on its resources hold it together. */
export type LeaseMode = 'exclusive' | 'shared';

export interface Busy {
  kind: 'refused';
  error: 'conflict';
  message: string;
}

/**
 * Runs `work` holding the tenant (docs/decisions.md, "One tenant, one order"): a create attempt,
 * a reconcile or a delete alone, the runs on the tenant's resources together. A run that finds
 * the tenant held waits (durable timers) for the holder to finish, so the operations on one
 * tenant take effect one after another; after `LEASE_WAIT_MS` it refuses with a 409 that says to
 * repeat. The lease is released however `work` ends. `waitMs` is there for the workflow tests
 * (test/workflows/), whose dev server cannot skip time; every run of the service waits the same.
 */
export function underLease<T>(tenant: string, mode: LeaseMode, operation: string, work: () => Promise<T>, waitMs = LEASE_WAIT_MS): Promise<T | Busy> {
  if (begunWith('leases-in-one-call')) return underLeases([{ tenant, mode }], operation, work, waitMs);
  return underLeaseOneByOne(tenant, mode, operation, work, waitMs);
}

/**
 * A run on one named object of a tenant (a workload, a record, a device's address, a broker account): the tenant
 * shared, the name alone, so a workload and a record of one name, or a record and the release of
 * the device address under it, never interleave. The name's key holds a `/`, which no tenant
 * name does.
 */
export function underNameLease<T>(tenant: string, name: string, operation: string, work: () => Promise<T>): Promise<T | Busy> {
  if (begunWith('leases-in-one-call')) {
    return underLeases(
      [
        { tenant, mode: 'shared' },
        { tenant: `${tenant}/${name}`, mode: 'exclusive' },
      ],
      operation,
      work,
      LEASE_WAIT_MS,
    );
  }
  return underLeaseOneByOne(tenant, 'shared', operation, () => underLeaseOneByOne(`${tenant}/${name}`, 'exclusive', operation, work));
}

/**
 * The leases of a run in order (its tenant, then its name), each claimed once the one before is
 * held: one local activity a claim round that also takes the object's claim with the first lease,
 * and one that releases them all, where a run of 0.14 made a local activity of each claim, of the
 * object's claim and of each release (docs/decisions.md, "Leases in one call"). The wait for the
 * rest goes on holding what was granted, as the nested claims did.
 */
async function underLeases<T>(wanted: LeaseWanted[], operation: string, work: () => Promise<T>, waitMs: number): Promise<T | Busy> {
  let pending = wanted;
  let mayHold = false;
  let answered = false;
  try {
    for (let waited = 0, polls = 0; ; polls++) {
      const claimRun = objectClaimPending();
      let claim: LeasesClaimed;
      try {
        claim = await registry.claimLeases({ claims: pending, operation, ...(claimRun ? { claimRun } : {}) });
      } catch (err) {
        // The claim's write may have committed with its answer lost (the database went away).
        mayHold = true;
        throw err;
      }
      if (claim.granted > 0 && claimRun) objectClaimedWithLease();
      mayHold ||= claim.granted > 0;
      pending = pending.slice(claim.granted);
      if (pending.length === 0) break;
      if (waited >= waitMs) {
        return {
          kind: 'refused',
          error: 'conflict',
          message: `another operation on tenant ${pending[0]!.tenant} (${claim.heldBy}) is still running; repeat the call when it has answered`,
        };
      }
      const pause = Math.min(leasePollPause(polls), waitMs - waited);
      await sleep(pause);
      waited += pause;
    }
    const result = await work();
    answered = true;
    return result;
  } finally {
    // Left to the attempt's settle when the work answered (the object settled, then the tenant
    // free); else released here, also when the run is being cancelled: it must reach the registry.
    const releasedWithSettle = answered && leasesReleasedWithSettle();
    if (mayHold && !releasedWithSettle) await CancellationScope.nonCancellable(() => leases.releaseLeases());
  }
}

/** A run of 0.14's: a local activity for each claim, the object's claim and each release. */
async function underLeaseOneByOne<T>(tenant: string, mode: LeaseMode, operation: string, work: () => Promise<T>, waitMs = LEASE_WAIT_MS): Promise<T | Busy> {
  const backoff = begunWith('lease-poll-backoff');
  for (let waited = 0, polls = 0; ; polls++) {
    let claim: Awaited<ReturnType<typeof registry.claimTenant>>;
    try {
      claim = await registry.claimTenant({ tenant, mode, operation });
    } catch (err) {
      // The claim's write may have committed with its answer lost (the database went away):
      // released here, or the lease would outlive the run and hold off every other one.
      if (begunWith('release-after-failed-claim')) await release(tenant);
      throw err;
    }
    if (claim.granted) break;
    if (waited >= waitMs) {
      return {
        kind: 'refused',
        error: 'conflict',
        message: `another operation on tenant ${tenant} (${claim.heldBy}) is still running; repeat the call when it has answered`,
      };
    }
    const pause = backoff ? Math.min(leasePollPause(polls), waitMs - waited) : POLL_MS;
    await sleep(pause);
    waited += pause;
  }
  try {
    await claimObject();
    return await work();
  } finally {
    // Also when the run is being cancelled: the release must still reach the registry.
    await release(tenant);
  }
}

/**
 * A tenant's own run (a create attempt, a reconcile, a delete): the tenant alone, answered
 * (workflows/run-step.ts: `Outcome` from how it answered, the step activities it ran).
 */
export function aloneOnTenant<R extends { kind: string }>(
  tenant: string,
  operation: string,
  work: () => Promise<R>,
  success: (r: R | Busy) => string = (r) => r.kind,
): Promise<Answered<R | Busy>> {
  return answering(() => underLease(tenant, 'exclusive', operation, work), success);
}

/**
 * A reconcile or a delete: alone on the tenant, begun in the registry (which may refuse: no such
 * tenant, not in a state for it), the tenant's index put in the run's memo for the UI.
 */
export function tenantRun<S extends { kind: 'proceed'; index: number }, R extends { kind: string }>(
  tenant: string,
  operation: string,
  begin: () => Promise<S | Refusal>,
  work: (start: S) => Promise<R>,
): Promise<R | Refusal | Busy> {
  return aloneOnTenant(tenant, operation, async (): Promise<R | Refusal> => {
    const start = await begin();
    if (start.kind === 'refused') return start;
    upsertMemo({ index: start.index });
    return work(start as S);
  });
}
