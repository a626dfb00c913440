import type { Logger } from 'pino';
import { asBackendStep, taggedWithStep as taggedWithAnyStep, StepFailure } from './step-failure.js';
import type { BackendStep } from '../core/step-table.js';

/**
 * The backend steps of devices, addresses and Wi-Fi keys. A failure is logged here with its
 * detail (which may name a backend host) and leaves as an ApplicationFailure whose message names
 * only the step, with the step in its details so a workflow that runs several steps in one
 * activity can say which one failed. A backend that refused on purpose is not retried.
 *
 * Unlike the tenant steps, these record nothing in the tenant's steps: an admission's key is
 * issued before its tenant exists.
 */
export { StepFailure };

/** Runs one backend call, tagging a failure with its step. */
export function taggedWithStep<T>(step: BackendStep, work: () => Promise<T>): Promise<T> {
  return taggedWithAnyStep(step, work);
}

/** The activity's body: failures of tagged steps become ApplicationFailures naming the step. */
export function backendActivity<T>(log: Logger, context: Record<string, unknown>, defaultStep: BackendStep, work: () => Promise<T>): Promise<T> {
  return asBackendStep(log, defaultStep, context, work);
}
