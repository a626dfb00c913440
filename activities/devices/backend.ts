import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import { BackendError } from '../ensure.js';

/**
 * The backend steps of devices, addresses and Wi-Fi keys. A failure is logged here with its
 * detail (which may name a backend host) and leaves as an ApplicationFailure whose message names
 * only the step, with the step in its details so a workflow that runs several steps in one
 * activity can say which one failed. A backend that refused on purpose is not retried.
 *
 * Unlike the tenant steps, these record nothing in the tenant's steps: an admission's key is
 * issued before its tenant exists.
 */
export type BackendStep = 'device-address' | 'dns' | 'wifi';

export class StepFailure extends Error {
  constructor(
    readonly step: BackendStep,
    readonly reason: unknown,
  ) {
    super(`backend step "${step}" failed`);
  }
}

/** Runs one backend call, tagging a failure with its step. */
export async function atStep<T>(step: BackendStep, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof StepFailure ? err : new StepFailure(step, err);
  }
}

/** The activity's body: failures of tagged steps become ApplicationFailures naming the step. */
export async function backendActivity<T>(log: Logger, context: Record<string, unknown>, defaultStep: BackendStep, work: () => Promise<T>): Promise<T> {
  const beat = setInterval(heartbeat, 1000);
  try {
    return await work();
  } catch (err) {
    const failure = err instanceof StepFailure ? err : new StepFailure(defaultStep, err);
    const cause = failure.reason;
    log.error({ ...context, step: failure.step, err: cause instanceof BackendError ? cause.detail : String(cause) }, 'backend step failed');
    const retryable = !(cause instanceof BackendError) || cause.retryable;
    throw ApplicationFailure.create({
      message: failure.message,
      type: retryable ? 'BackendFailed' : 'BackendRefused',
      nonRetryable: !retryable,
      details: [failure.step],
    });
  } finally {
    clearInterval(beat);
  }
}

function heartbeat(): void {
  try {
    Context.current().heartbeat();
  } catch {
    // Outside an activity (direct calls) there is nothing to beat for.
  }
}

/** For callers with their own step runner (the tenant steps): the underlying error, untagged. */
export async function untagged<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof StepFailure ? err.reason : err;
  }
}
