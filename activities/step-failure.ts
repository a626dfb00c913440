import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import { BackendError } from '../core/backend-outcome.js';
import { withoutHosts } from '../core/without-hosts.js';
import { REGISTRY_UNAVAILABLE } from '../core/failure-types.js';
import { isDriverConnectionLost } from '../db/unreachable.js';
import { noteHeartbeat } from './attempt-cancelled.js';

/**
 * How every backend step leaves its activity, whatever its area (tenant, workload, record,
 * device, address, Wi-Fi key, broker account): it heartbeats while it runs, so Temporal notices a
 * dead worker in seconds; a failure is logged here and leaves as an ApplicationFailure whose
 * message names only the step, and whose details and cause say what the backend answered
 * (`StepFailureDetails`), for the engineer reading the run in the Temporal UI. Those are encoded by
 * the payload codec like every failure, and never reach an HTTP answer (the workflow answers only
 * the step). A backend that refused on purpose is not retried.
 */

/** What a failed step's ApplicationFailure carries as its first detail. */
export interface StepFailureDetails {
  step: string;
  /** The product that answered (`powerdns`, `proxmox`, ...), when a backend answered at all. */
  backend?: string;
  /** The backend's HTTP status, when it gave one. */
  status?: number;
  /** The call and the backend's answer, e.g. `PATCH /api/v1/servers/localhost/zones/x -> 500 ...`. */
  answer: string;
}

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
export async function taggedWithStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof StepFailure ? err : new StepFailure(step, err);
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

/**
 * Replaces every secret the step knows of in a backend's answer: a backend may echo what it was
 * sent, and the answer goes to the log and to the run's history.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 6) continue;
    for (const form of new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)])) out = out.split(form).join('[secret]');
  }
  return out;
}

export async function asBackendStep<T>(
  log: Logger,
  step: string,
  context: Record<string, unknown>,
  work: () => Promise<T>,
  secrets: readonly (string | undefined)[] = [],
): Promise<T> {
  const beat = setInterval(heartbeat, 1000);
  noteHeartbeat();
  try {
    return await work();
  } catch (err) {
    // Already a deliberate failure (e.g. "no broker at this site"): it leaves as it is.
    if (err instanceof ApplicationFailure) throw err;
    const failure = err instanceof StepFailure ? err : new StepFailure(step, err);
    const cause = failure.reason;
    if (isDriverConnectionLost(cause)) throw registryUnavailable();
    const answer = redact(cause instanceof BackendError ? cause.detail : cause instanceof Error ? cause.message : String(cause), secrets);
    // The history's copy is what reads and 502 bodies show (core/object-life.ts): no host either.
    const details: StepFailureDetails =
      cause instanceof BackendError
        ? { step: failure.step, backend: cause.product, ...(cause.status ? { status: cause.status } : {}), answer: withoutHosts(answer) }
        : { step: failure.step, answer: withoutHosts(answer) };
    log.error({ ...context, step: failure.step, backend: details.backend, status: details.status, err: answer }, 'backend step failed');
    const retryable = !(cause instanceof BackendError) || cause.retryable;
    throw ApplicationFailure.create({
      message: failure.message,
      type: retryable ? 'BackendFailed' : 'BackendRefused',
      nonRetryable: !retryable,
      details: [details],
      cause: ApplicationFailure.create({
        message: details.backend ? `${details.backend}: ${details.answer}` : details.answer,
        type: details.backend ?? 'Error',
        nonRetryable: !retryable,
      }),
    });
  } finally {
    clearInterval(beat);
  }
}

/**
 * The registry away under a step: not the backend failing, so not one of its attempts (the run
 * waits it out and runs the step again, workflows/run-step.ts), and no answer of the backend's.
 */
export const registryUnavailable = (): ApplicationFailure =>
  ApplicationFailure.create({ message: 'the registry is unreachable', type: REGISTRY_UNAVAILABLE, nonRetryable: true });

function heartbeat(): void {
  try {
    Context.current().heartbeat();
    noteHeartbeat();
  } catch {
    // Outside an activity (direct calls in benchmarks) there is nothing to beat for.
  }
}
