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

/** What the API tells the registry of the kept answers it writes out (apps/api/lost-answers.ts). */
export interface AnswerDelivery {
  handing(workflowId: string, answerId: string): Promise<void>;
  delivered(workflowId: string, answerId: string): Promise<void>;
}

/**
 * `delivery`: told of each kept answer before the response carrying it is written (`handing`: a
 * repeat arriving now waits rather than collect it a second time, so a create's secrets go out
 * once) and once it has been written out (`delivered`: on a Node server, its `finish`; at once
 * where there is no socket, as in `app.request`). Never delivered before the write: an instance
 * killed between the mark and the write would have lost the answer for good (the crash test,
 * SIGKILL right after an answer arrived: the repeat answered 409); its handing mark runs out and
 * the repeat collects it. A failure to mark is logged, never failing the call.
 */
export function runHeaders(delivery?: AnswerDelivery): MiddlewareHandler {
  return async function namesTheRun(c, next) {
    const seen: RunSeen = { answers: [] };
    await store.run(seen, next);
    if (seen.id) c.res.headers.set(RUN_ID_HEADER, seen.id);
    if (seen.steps?.length) c.res.headers.set(RUN_STEPS_HEADER, stepsHeader(seen.steps));
    if (!delivery || seen.answers.length === 0 || c.res.status >= 500) return;
    const markAll = (mark: (workflowId: string, answerId: string) => Promise<void>, what: string) =>
      Promise.all(seen.answers.map((a) => mark(a.workflowId, a.answerId))).catch((err: unknown) =>
        c.var.log?.warn({ err }, `could not mark an answer ${what}`),
      );
    await markAll(delivery.handing, 'being handed');
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing) outgoing.once('finish', () => void markAll(delivery.delivered, 'delivered'));
    else await markAll(delivery.delivered, 'delivered');
  };
}
