import type { UpdateDefinition } from '@temporalio/common';
import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';

/**
 * Serves the calls delivered to one object's workflow by update-with-start (a workload, a record):
 * each call is an attempt, run one after another in arrival order, so concurrent calls for one name
 * converge (the last one's request is what stays) and never interleave their writes. The run ends
 * when no attempt is left; a later call starts a fresh run, and every step is an ensure, so it
 * resumes.
 *
 * Not parked-attempts.ts, on purpose: calls for one workload or record may differ (another size,
 * another target), so each runs after the other and the last request stays; a tenant's or a broker
 * account's calls are one request repeated, so a call joins the running attempt and a failed
 * attempt parks the run for the repeat.
 */
export async function serveSerialAttempts<Req, Res>(update: UpdateDefinition<Res, [Req]>, run: (req: Req) => Promise<Res>): Promise<Res | undefined> {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let served = 0;
  let last: Res | undefined;

  setHandler(update, async (req: Req) => {
    waiting++;
    const mine = tail.then(() => run(req));
    tail = mine.catch(() => undefined);
    try {
      last = await mine;
      return last;
    } finally {
      waiting--;
      served++;
    }
  });

  // Update-with-start delivers the first call with the start; the bound only guards a start without one.
  await condition(() => served > 0 && waiting === 0, '1 hour');
  await condition(allHandlersFinished);
  return last;
}
