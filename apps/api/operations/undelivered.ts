import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { runUnavailable } from '../errors.js';

/**
 * Calls whose answer never reached the caller: the call answered 503 because Temporal went away
 * (killed, restarted) or dropped the update, while its run went on and may have finished once
 * Temporal was back. The repeat of such a call (the same call, resumed) gets the finished run's
 * answer, as its first call would have:
 * - a create, with the secrets it issued, instead of the 409 of a tenant already ready: secrets
 *   are shown once, and that once had not happened;
 * - a delete, 204, instead of the 404 of a tenant already gone.
 * Only the first repeat after the lost answer collects it; any later call is answered afresh.
 * Held by this API instance for the site's idempotency window (an instance restarted meanwhile
 * has forgotten it: a create then resumes with new secrets through a restore or reconcile, a
 * delete answers 404).
 */
export function undeliveredAnswers<R extends { kind: string }, A extends R>(
  client: Client,
  opts: { windowMs: number; workflowId: (name: string) => string; answered: (result: R | undefined) => result is A },
) {
  /** Per name: when the lost call began, and until when its answer is held. */
  const lost = new Map<string, { began: number; until: number }>();
  return {
    note(name: string, began: number) {
      lost.set(name, { began, until: Date.now() + opts.windowMs });
    },
    forget(name: string) {
      lost.delete(name);
    },
    /**
     * The finished run's answer to a call whose answer was lost, once. Otherwise the run still
     * open (`runId`), which the repeat joins by update as usual, or nothing.
     */
    async collect(name: string, runId?: string): Promise<{ answer?: A; runId?: string } | undefined> {
      const held = lost.get(name);
      if (held === undefined) return undefined;
      if (held.until < Date.now()) {
        lost.delete(name);
        return undefined;
      }
      const handle = client.workflow.getHandle(opts.workflowId(name), runId);
      let result: R | undefined;
      try {
        const { status, runId: current, closeTime } = await handle.describe();
        if (status.name === 'RUNNING') return { runId: current };
        if (status.name !== 'COMPLETED') return undefined;
        // A run closed before the lost call began is an earlier object's (a tenant deleted, created
        // again, and this delete lost before it reached Temporal): not this call's answer. The close
        // time is Temporal's clock, the start the API's: they must agree to within a run's length.
        if (!closeTime || closeTime.getTime() < held.began) return undefined;
        result = (await handle.result()) as R | undefined;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return undefined;
        throw runUnavailable(err);
      }
      if (!opts.answered(result)) return undefined;
      // Taken before it is answered: two repeats at once never both get it (a create's secrets).
      if (!lost.delete(name)) return undefined;
      return { answer: result };
    },
  };
}

export type UndeliveredAnswers<R extends { kind: string }, A extends R> = ReturnType<typeof undeliveredAnswers<R, A>>;

/**
 * A call that may repeat one whose answer was lost: the lost answer when its run finished, else the
 * call (which joins the lost run by update when it still runs). `collect: false` makes the call
 * afresh, still noting it when its own answer is lost (a create carrying restore secrets).
 */
export async function answerOnce<R extends { kind: string }, A extends R>(
  lost: UndeliveredAnswers<R, A>,
  name: string,
  call: () => Promise<R>,
  collect = true,
): Promise<R> {
  const held = collect ? await lost.collect(name) : undefined;
  if (held?.answer) return held.answer;
  const began = Date.now();
  let result: R;
  try {
    result = await call();
  } catch (err) {
    // Temporal went away with the call delivered or not: its run may finish without us.
    lost.note(name, began);
    throw err;
  }
  if (result.kind === 'refused' && held?.runId) {
    // The run that carried the lost answer completed just before this call reached it: its answer.
    const late = await lost.collect(name, held.runId);
    if (late?.answer) return late.answer;
  }
  lost.forget(name);
  return result;
}
