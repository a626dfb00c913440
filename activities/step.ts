import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import { BackendError } from './ensure.js';

/**
 * How every backend step leaves an activity, whatever its area (tenant, workload, record,
 * device, address, Wi-Fi key, broker account): it heartbeats while it runs, so Temporal notices a
 * dead worker in seconds; a failure is logged here with its detail (which may name a backend
 * host) and leaves as an ApplicationFailure whose message names only the step, with the step in
 * its details; a backend that refused on purpose is not retried.
 */

/** A failure tagged with the step it happened in, for activities that run several steps. */
export class StepFailure extends Error {
  constructor(
    readonly step: string,
    readonly reason: unknown,
  ) {
    super(`backend step "${step}" failed`);
  }
}

/** Runs one backend call, tagging a failure with its step. */
export async function atStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof StepFailure ? err : new StepFailure(step, err);
  }
}

export async function asBackendStep<T>(log: Logger, step: string, context: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
  const beat = setInterval(heartbeat, 1000);
  try {
    return await work();
  } catch (err) {
    // Already a deliberate failure (e.g. "no broker at this site"): it leaves as it is.
    if (err instanceof ApplicationFailure) throw err;
    const failure = err instanceof StepFailure ? err : new StepFailure(step, err);
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

// What an activity running several steps has got through: every heartbeat carries it, so an
// attempt after a dead worker (or a transient fault) resumes where the last one stopped.
const progressOf = new WeakMap<Context, unknown>();

function heartbeat(): void {
  try {
    const ctx = Context.current();
    ctx.heartbeat(progressOf.get(ctx));
  } catch {
    // Outside an activity (direct calls in benchmarks) there is nothing to beat for.
  }
}

/** Records (and heartbeats at once) how far a multi-step activity has got. */
export function recordProgress(details: unknown): void {
  try {
    const ctx = Context.current();
    progressOf.set(ctx, details);
    ctx.heartbeat(details);
  } catch {
    // Outside an activity: nothing to resume from.
  }
}

/** The progress the previous attempt of this activity recorded, if any. */
export function previousProgress<T>(): T | undefined {
  try {
    return Context.current().info.heartbeatDetails as T | undefined;
  } catch {
    return undefined;
  }
}

/** For a step that runs another area's tagged work as its own (the tenant's device-address step). */
export async function untagged<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof StepFailure ? err.reason : err;
  }
}
