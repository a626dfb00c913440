import { isRegistryQueryUnreachable } from '../db/unreachable.js';
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
    out[name] = name.includes('.') && typeof fn === 'function' ? registryAwareStep(fn as (...a: unknown[]) => Promise<unknown>) : fn;
  }
  return out as A;
}

function registryAwareStep(step: (...a: unknown[]) => Promise<unknown>) {
  return async function stepWaitingOutTheRegistry(...args: unknown[]): Promise<unknown> {
    try {
      return await step(...args);
    } catch (err) {
      const cause = err instanceof StepFailure ? err.reason : err;
      if (!isRegistryQueryUnreachable(cause)) throw err;
      throw registryUnavailable();
    }
  };
}
