import type { UpdateDefinition } from '@temporalio/common';
import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';

/**
 * Serves the calls delivered to a create-like workflow by update-with-start. Each call is an
 * attempt; a call arriving while one runs joins it and gets its result, so concurrent identical
 * calls converge. After a failed attempt the run parks for the next call, which resumes; after a
 * success, or when parked longer than `parkedTimeoutMs`, the run ends.
 */
export async function serveParkedAttempts<Req, Res extends { kind: string }>(
  update: UpdateDefinition<Res, [Req]>,
  attempt: (req: Req) => Promise<Res>,
  parkedTimeoutMs: number,
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
    const woke = await condition(() => running !== undefined, parkedTimeoutMs);
    if (!woke) break;
    await condition(() => running === undefined);
    if (last && last.kind !== 'failed') break;
  }
  await condition(allHandlersFinished);
  return last;
}
