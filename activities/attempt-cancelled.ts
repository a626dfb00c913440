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
  if (!signal.aborted) return;
  const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'by Temporal');
  throw new Error(`this attempt was cancelled (${why}) and calls its backends no more`);
}
