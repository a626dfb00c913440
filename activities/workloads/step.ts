import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import { BackendError } from '../ensure.js';

/** The backend steps of a workload or record: the error text names one of these and nothing more. */
export type PublishStep = 'hypervisor' | 'dns';

/**
 * Runs one backend call of a workload or record. A failure is logged here with its detail (which
 * may name a backend host) and leaves as an ApplicationFailure naming only the step; a backend
 * that refused on purpose is not retried.
 */
export async function runPublishStep<T>(log: Logger, step: PublishStep, what: { tenant: string; object: string }, work: () => Promise<T>): Promise<T> {
  const beat = setInterval(() => {
    try {
      Context.current().heartbeat();
    } catch {
      // Called outside an activity: nothing to beat for.
    }
  }, 1000);
  try {
    return await work();
  } catch (err) {
    log.error({ ...what, step, err: err instanceof BackendError ? err.detail : String(err) }, 'backend step failed');
    const retryable = !(err instanceof BackendError) || err.retryable;
    throw ApplicationFailure.create({
      message: `backend step "${step}" failed`,
      type: retryable ? 'BackendFailed' : 'BackendRefused',
      nonRetryable: !retryable,
    });
  } finally {
    clearInterval(beat);
  }
}
