import { ApplicationFailure, Context } from '@temporalio/activity';
import { REGISTRY_UNAVAILABLE } from '../core/failure-types.js';
import { isDriverConnectionLost, isRegistryUnreachable } from '../db/unreachable.js';
import { registryUnavailable, StepFailure } from './step-failure.js';

/**
 * A backend step (an activity `<area>.<verb>`) reads and writes the registry beside its backend
 * (the tenant's row, the step's outcome). When the registry is away, the step's backend has not
 * failed: its three attempts are for backend faults, and spending them on a database outage
 * answered 502 `backend step "network" failed` with the database's error as the backend's answer
 * (the database-cut test). Such a failure leaves as `RegistryUnavailable`, not retried here: the
 * run waits the outage out and runs the step again (workflows/run-step.ts).
 */
export function waitingOutTheRegistry<A extends Record<string, unknown>>(activities: A): A {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    if (typeof fn !== 'function') out[name] = fn;
    else
      out[name] = name.includes('.')
        ? registryAwareStep(fn as (...a: unknown[]) => Promise<unknown>)
        : registryActivity(fn as (...a: unknown[]) => Promise<unknown>);
  }
  return out as A;
}

/**
 * How many attempts a registry activity's own fault gets (a bug, a constraint): the registry being
 * away is not one of them.
 */
export const REGISTRY_FAULT_ATTEMPTS = 5;

/**
 * A registry activity (a local activity: `prepareTenant`, `finishAttempt`, a lease) is retried
 * while the registry is away, for as long as its options allow (REGISTRY_OPTIONS: a lease's
 * lifetime), and only REGISTRY_FAULT_ATTEMPTS times for anything else. Five quick attempts used to
 * cover both: a cut of 6 s outlasted them after `finishAttempt` had committed the tenant ready, the
 * attempt failed, its caller got 503, and the repeat found the tenant ready and answered 409, the
 * secrets never shown (the database-cut test).
 */
function registryActivity(activity: (...a: unknown[]) => Promise<unknown>) {
  return async function registryActivityWaitingOutTheRegistry(...args: unknown[]): Promise<unknown> {
    try {
      return await activity(...args);
    } catch (err) {
      if (isRegistryUnreachable(err)) throw ApplicationFailure.create({ message: 'the registry is unreachable', type: REGISTRY_UNAVAILABLE });
      if (err instanceof ApplicationFailure && err.nonRetryable) throw err;
      if ((activityInfo()?.attempt ?? 1) < REGISTRY_FAULT_ATTEMPTS) throw err;
      const e = err instanceof Error ? err : new Error(String(err));
      throw ApplicationFailure.create({
        message: e.message,
        type: (err instanceof ApplicationFailure ? err.type : undefined) ?? e.name,
        nonRetryable: true,
        cause: e,
      });
    }
  };
}

/** The running activity's attempt and when it was scheduled; undefined outside one (a direct call: the bench). */
export function activityInfo(): { attempt: number; scheduledTimestampMs: number } | undefined {
  try {
    return Context.current().info;
  } catch {
    return undefined;
  }
}

function registryAwareStep(step: (...a: unknown[]) => Promise<unknown>) {
  return async function stepWaitingOutTheRegistry(...args: unknown[]): Promise<unknown> {
    try {
      return await step(...args);
    } catch (err) {
      const cause = err instanceof StepFailure ? err.reason : err;
      if (!isDriverConnectionLost(cause)) throw err;
      throw registryUnavailable();
    }
  };
}
