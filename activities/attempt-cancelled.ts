import { Context } from '@temporalio/activity';

/**
 * An attempt Temporal has given up on (its heartbeat timed out while it waited, or its worker is
 * shutting down) is cancelled, but its code runs on: before a write it must stop, or it would
 * write what a later attempt, or an operator, has since changed (a zone the operator removed
 * for a delete, staged again). Every backend call of a worker checks it (`workerBackendCalls`).
 * Outside an activity (the bench's direct calls) there is none.
 */
export function stopIfCancelled(): void {
  let signal: AbortSignal;
  try {
    signal = Context.current().cancellationSignal;
  } catch {
    return;
  }
  stopIfAborted(signal);
}

function stopIfAborted(signal: AbortSignal): void {
  if (!signal.aborted) return;
  const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'by Temporal');
  throw new Error(`this attempt was cancelled (${why}) and calls its backends no more`);
}

/** When each running attempt last heartbeat (keyed by its activity context): `noteHeartbeat`. */
const lastBeat = new WeakMap<Context, number>();

/** An attempt's heartbeat sent now (asBackendStep's beat, and its start). */
export function noteHeartbeat(): void {
  try {
    lastBeat.set(Context.current(), Date.now());
  } catch {
    // Outside an activity there is nothing to note.
  }
}

/**
 * How much of the heartbeat timeout a worker keeps for Core's heartbeat throttle (1 s,
 * apps/worker/worker.ts) and the heartbeat's way to the server: an attempt that has gone longer
 * than the timeout less this without a heartbeat may have been given up on.
 */
export const STALL_MARGIN_MS = 2_000;
/** How long a stalled attempt waits for the server's word on its heartbeat before it writes. */
export const CONFIRM_MS = 1_500;

/**
 * `stopIfCancelled`, and one more case: an attempt whose process stalled (a starved event loop: no
 * heartbeat of it left for most of its heartbeat timeout) may have been given up on without knowing
 * yet, since it learns of that only from its next heartbeat's answer, and it would write in the
 * meantime: a races trial under load found a deleted tenant's state-store user made again
 * (docs/reliability.md). Such an attempt heartbeats at once and waits for the answer (a
 * cancellation when Temporal no longer wants it) before its call leaves.
 */
export async function admitAttempt(): Promise<void> {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return;
  }
  const signal = context.cancellationSignal;
  stopIfAborted(signal);
  const beat = lastBeat.get(context);
  const timeout = context.info.heartbeatTimeoutMs;
  if (beat === undefined || !timeout || Date.now() - beat <= timeout - STALL_MARGIN_MS) return;
  context.heartbeat();
  noteHeartbeat();
  // The heartbeat's answer may already be in (a cancellation at once).
  if (!signal.aborted)
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, CONFIRM_MS);
      signal.addEventListener('abort', done);
    });
  stopIfAborted(signal);
}
