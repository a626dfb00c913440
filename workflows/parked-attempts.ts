import type { UpdateDefinition } from '@temporalio/common';
import { allHandlersFinished, ApplicationFailure, condition, setCurrentDetails, setHandler } from '@temporalio/workflow';

/** How a parked run describes itself: what is repeated, and the step a failed answer names. */
export interface Parking<Res> {
  call: string;
  failedStep(res: Res): string | undefined;
}

/**
 * Serves the calls delivered to a create-like workflow by update-with-start. Each call is an
 * attempt; a call arriving while one runs joins it and gets its result, so concurrent identical
 * calls converge. After a failed attempt the run parks for the next call, which resumes: its
 * current details say after which step and until when, and the timer is labelled. After a success
 * the run completes; when parked longer than `parkedTimeoutMs` it gives up and ends Failed, so a
 * run that never converged is found with `ExecutionStatus='Failed'`.
 */
export async function serveParkedAttempts<Req, Res extends { kind: string }>(
  update: UpdateDefinition<Res, [Req]>,
  attempt: (req: Req) => Promise<Res>,
  parkedTimeoutMs: number,
  parking: Parking<Res>,
): Promise<Res | undefined> {
  let running: Promise<Res> | undefined;
  let last: Res | undefined;

  setHandler(update, async (req: Req) => {
    running ??= attempt(req).finally(() => {
      running = undefined;
    });
    const result = await running;
    last = result;
    return result;
  });

  for (;;) {
    const step = last?.kind === 'failed' ? parking.failedStep(last) : undefined;
    if (last?.kind === 'failed') {
      const until = new Date(Date.now() + parkedTimeoutMs).toISOString();
      setCurrentDetails(`Parked after step \`${step ?? 'unknown'}\` failed; waiting until ${until} for a repeat of the ${parking.call}, which resumes from that step.`);
    }
    const summary = last ? `parked: waiting for a repeat of the ${parking.call}` : `waiting for the ${parking.call}`;
    const woke = await condition(() => running !== undefined, parkedTimeoutMs, { summary });
    if (!woke) break;
    setCurrentDetails('');
    await condition(() => running === undefined);
    if (last && last.kind !== 'failed') break;
  }
  await condition(allHandlersFinished);
  if (last?.kind === 'failed') {
    const step = parking.failedStep(last);
    throw ApplicationFailure.nonRetryable(
      `gave up: step "${step ?? 'unknown'}" failed and no repeat of the ${parking.call} came within ${Math.round(parkedTimeoutMs / 1000)} s`,
      'ParkedTimeout',
    );
  }
  return last;
}
