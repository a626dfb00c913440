import { ActivityFailure, ApplicationFailure, CancelledFailure, TemporalFailure, TimeoutFailure } from '@temporalio/workflow';
import type { RunFailure } from '../core/object-life.js';

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

/** What Temporal's timeouts are called in a failure's answer. */
const TIMEOUT_NAMES: Record<string, string> = {
  HEARTBEAT: 'heartbeat',
  START_TO_CLOSE: 'start-to-close',
  SCHEDULE_TO_CLOSE: 'schedule-to-close',
  SCHEDULE_TO_START: 'schedule-to-start',
};

/**
 * What a failed step's activity reported (activities/step-failure.ts `StepFailureDetails`): the
 * backend's answer, no host, no secret. An attempt Temporal cut by one of its timeouts (its
 * heartbeat late while a backend hung and the worker was starved of CPU) reported nothing: its
 * failure says which timeout, rather than an unknown reason with no answer.
 */
export function failureOf(err: TemporalFailure, step: string, activity: string, type: string | undefined): RunFailure {
  const app = err instanceof ApplicationFailure ? err : err.cause instanceof ApplicationFailure ? err.cause : undefined;
  const timeout = err instanceof TimeoutFailure ? err : err.cause instanceof TimeoutFailure ? err.cause : undefined;
  const d = (app?.details?.[0] ?? {}) as { backend?: unknown; status?: unknown; answer?: unknown };
  const answer =
    typeof d.answer === 'string'
      ? d.answer
      : typeof app?.message === 'string'
        ? app.message
        : timeout
          ? `no answer within the attempt's ${TIMEOUT_NAMES[timeout.timeoutType ?? ''] ?? 'own'} timeout`
          : undefined;
  return {
    step,
    activity,
    reason: type ?? (timeout ? 'Timeout' : 'unknown'),
    ...(typeof d.backend === 'string' ? { backend: d.backend } : {}),
    ...(typeof d.status === 'number' ? { status: d.status } : {}),
    ...(answer !== undefined ? { answer } : {}),
  };
}
