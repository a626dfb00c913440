import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';

/**
 * Every answer a run produced names the run, so an operator holding a 502 finds it without a
 * search: `Run-Id: workload-create/acme/web` (the workflow id; the Temporal UI and CLI open it),
 * and `Run-Steps` lists the step activities the call's attempt ran, each `=ok` or `=failed`
 * (what `tenantctl` prints as ✓ and ✗). Set by the run helper (runs.ts) through a per-request
 * store, so no handler builds them.
 */
export const RUN_ID_HEADER = 'Run-Id';
export const RUN_STEPS_HEADER = 'Run-Steps';

interface RunSeen {
  id?: string;
  steps?: { activity: string; ok: boolean }[];
  /** The answers runs kept for this call (db/schema/object-runs.ts), to mark delivered once sent. */
  answers: { workflowId: string; answerId: string }[];
  /** The answer is one a run kept for a caller who lost it (apps/api/lost-answers.ts). */
  collected?: boolean;
}

const store = new AsyncLocalStorage<RunSeen>();

/** Called by the run helper when a call reached a run (and, when it answered, with its steps). */
export function sawRun(id: string, answer?: unknown): void {
  const seen = store.getStore();
  if (!seen) return;
  seen.id = id;
  const { ran, answer_id } = (answer ?? {}) as { ran?: unknown; answer_id?: unknown };
  if (Array.isArray(ran)) seen.steps = ran.filter((s): s is { activity: string; ok: boolean } => typeof s?.activity === 'string' && typeof s?.ok === 'boolean');
  if (typeof answer_id === 'string') seen.answers.push({ workflowId: id, answerId: answer_id });
}

/** The call's answer is a lost one collected from the registry: marked delivered as it goes out. */
export function collectedAnswer(workflowId: string, answerId: string): void {
  const seen = store.getStore();
  if (!seen) return;
  seen.collected = true;
  seen.answers.push({ workflowId, answerId });
}

/** Whether the call being answered collected a lost answer (the idempotency middleware says so in its header). */
export const answerWasCollected = (): boolean => store.getStore()?.collected === true;

/** The header value of the steps: `dns.ensure=ok, resolver.ensure=failed`. */
export const stepsHeader = (steps: { activity: string; ok: boolean }[]): string => steps.map((s) => `${s.activity}=${s.ok ? 'ok' : 'failed'}`).join(', ');

/**
 * `delivered`: told of each kept answer once the response carrying it has been written out (on a
 * Node server, its `finish`; at once where there is no socket, as in `app.request`). Never
 * before: an instance killed between the mark and the write would have lost the answer for good
 * (the crash test, SIGKILL right after an answer arrived: the repeat answered 409). A connection
 * that closed first leaves it to be collected by the repeat. The cost: a repeat of the very same
 * call sent before the mark lands is handed the same answer again, as a call joining the attempt
 * would have been. A failure to mark is logged, never failing the call.
 */
export function runHeaders(delivered?: (workflowId: string, answerId: string) => Promise<void>): MiddlewareHandler {
  return async function namesTheRun(c, next) {
    const seen: RunSeen = { answers: [] };
    await store.run(seen, next);
    if (seen.id) c.res.headers.set(RUN_ID_HEADER, seen.id);
    if (seen.steps?.length) c.res.headers.set(RUN_STEPS_HEADER, stepsHeader(seen.steps));
    if (!delivered || seen.answers.length === 0 || c.res.status >= 500) return;
    const mark = () =>
      Promise.all(seen.answers.map((a) => delivered(a.workflowId, a.answerId))).catch((err: unknown) =>
        c.var.log?.warn({ err }, 'could not mark an answer delivered'),
      );
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing) outgoing.once('finish', () => void mark());
    else await mark();
  };
}
