import { AsyncLocalStorage } from 'node:async_hooks';
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
}

const store = new AsyncLocalStorage<RunSeen>();

/** Called by the run helper when a call reached a run (and, when it answered, with its steps). */
export function sawRun(id: string, answer?: unknown): void {
  const seen = store.getStore();
  if (!seen) return;
  seen.id = id;
  const ran = (answer as { ran?: unknown } | undefined)?.ran;
  if (Array.isArray(ran)) seen.steps = ran.filter((s): s is { activity: string; ok: boolean } => typeof s?.activity === 'string' && typeof s?.ok === 'boolean');
}

/** The header value of the steps: `dns.ensure=ok, resolver.ensure=failed`. */
export const stepsHeader = (steps: { activity: string; ok: boolean }[]): string => steps.map((s) => `${s.activity}=${s.ok ? 'ok' : 'failed'}`).join(', ');

export function runHeaders(): MiddlewareHandler {
  return async function namesTheRun(c, next) {
    const seen: RunSeen = {};
    await store.run(seen, next);
    if (seen.id) c.res.headers.set(RUN_ID_HEADER, seen.id);
    if (seen.steps?.length) c.res.headers.set(RUN_STEPS_HEADER, stepsHeader(seen.steps));
  };
}
