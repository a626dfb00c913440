import type { ApiClient, Step } from '../client/index.js';

/** The step activities a run's answer names in its `Run-Steps` header: `dns.ensure=ok, ...`. */
export function ranSteps(header: string | null): { activity: string; ok: boolean }[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => part.trim())
    .flatMap((part) => {
      const m = /^([a-z][a-z0-9-]*\.[a-z][a-z0-9-]*)=(ok|failed)$/.exec(part);
      return m ? [{ activity: m[1]!, ok: m[2] === 'ok' }] : [];
    });
}

const line = (name: string, ok: boolean, runId: string | undefined) => (ok ? `  ✓ ${name}` : `  ✗ ${name} failed${runId ? ` (run ${runId})` : ''}`);

/**
 * Step progress of any call that runs steps: each step activity the answer's `Run-Steps` names,
 * ✓ or ✗, the ✗ line naming the run (`Run-Id`) so the engineer opens it in the Temporal UI.
 */
export function reportRanSteps(response: Response, report: (line: string) => void): void {
  const runId = response.headers.get('run-id') ?? undefined;
  for (const s of ranSteps(response.headers.get('run-steps'))) report(line(s.activity, s.ok, runId));
}

/**
 * Progress of a tenant create, live: while the call runs, the tenant's `steps` are read every
 * `everyMs` and each step is reported once, when it is first seen passed. A failed step is
 * reported with the answer (through `finish`), which names the run; a step the polling missed
 * still gets its line then. A step is this call's only once it differs from what the tenant held
 * before the call (read first: a repeated create of a ready tenant holds every step passed
 * already, and reported them all at once before its first step ran).
 */
export async function watchSteps(api: ApiClient, name: string, report: (line: string) => void, everyMs = 300) {
  // A token that may only create (an enrollment token) cannot read: then only the answer reports.
  const read = async () => (await api.GET('/v1/tenants/{t}', { params: { path: { t: name } } }).catch(() => undefined))?.data?.steps;
  const mark = (s: Step) => `${s.ok} ${s.updated_at}`;
  const before = new Map((await read())?.map((s) => [s.name, mark(s)]));
  const seen = new Map<string, boolean>();
  const note = (steps: Step[] | undefined, runId?: string, final = false) => {
    for (const s of steps ?? []) {
      if (before.get(s.name) === mark(s) || seen.get(s.name) === s.ok || (!s.ok && !final)) continue;
      seen.set(s.name, s.ok);
      report(line(s.name, s.ok, runId));
    }
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (stopped) break;
      const steps = await read();
      if (!stopped) note(steps);
    }
  })();
  return {
    async finish(answer: unknown, response?: Response) {
      stopped = true;
      await loop;
      const tenant = (answer as { steps?: Step[]; tenant?: { steps?: Step[] } } | undefined) ?? {};
      note(tenant.steps ?? tenant.tenant?.steps, response?.headers.get('run-id') ?? undefined, true);
    },
  };
}
