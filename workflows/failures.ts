import { ActivityFailure, ApplicationFailure, CancelledFailure, TemporalFailure } from '@temporalio/workflow';

/**
 * A backend step or registry call that failed after its retries. Regular activities surface as
 * ActivityFailure; local activities may surface their ApplicationFailure directly. Cancellation
 * is not a step failure: it propagates.
 */
export function isStepFailure(err: unknown): err is TemporalFailure {
  if (err instanceof CancelledFailure) return false;
  return err instanceof ActivityFailure || err instanceof ApplicationFailure || err instanceof TemporalFailure;
}

/** The step a failed activity named in its details (activities/step-failure.ts), if it named one. */
export function failedStepOf(err: TemporalFailure): string | undefined {
  const app = err instanceof ApplicationFailure ? err : err.cause instanceof ApplicationFailure ? err.cause : undefined;
  const first = app?.details?.[0] as { step?: unknown } | undefined;
  return typeof first?.step === 'string' ? first.step : undefined;
}
