import type { Logger } from 'pino';
import { asBackendStep } from '../step-failure.js';
import type { PublishStep } from '../../core/step-table.js';

/**
 * Runs one backend call of a workload or record. A failure is logged here with its detail (which
 * may name a backend host) and leaves as an ApplicationFailure naming only the step; a backend
 * that refused on purpose is not retried.
 */
export function runPublishStep<T>(log: Logger, step: PublishStep, what: { tenant: string; object: string }, work: () => Promise<T>): Promise<T> {
  return asBackendStep(log, step, what, work);
}
