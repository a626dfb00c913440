import type { ApiClient, Step } from '../client/index.js';

/**
 * Progress of a tenant create: while the call runs, the tenant's `steps` are read every
 * `everyMs` and each step is reported once, when it is first seen passed (or failed). The create's
 * own answer is reported through `finish`, so a step the polling missed still gets its line.
 */
export function watchSteps(api: ApiClient, name: string, report: (line: string) => void, everyMs = 300) {
  const seen = new Map<string, boolean>();
  const note = (steps: Step[] | undefined) => {
    for (const s of steps ?? []) {
      if (seen.get(s.name) === s.ok) continue;
      seen.set(s.name, s.ok);
      report(s.ok ? `  ✓ ${s.name}` : `  ✗ ${s.name} failed`);
    }
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (stopped) break;
      // A token that may only create (an enrollment token) cannot read: then only the answer reports.
      const r = await api.GET('/v1/tenants/{t}', { params: { path: { t: name } } }).catch(() => undefined);
      if (!stopped && r?.data) note(r.data.steps);
    }
  })();
  return {
    async finish(answer: unknown) {
      stopped = true;
      await loop;
      const tenant = (answer as { steps?: Step[]; tenant?: { steps?: Step[] } } | undefined) ?? {};
      note(tenant.steps ?? tenant.tenant?.steps);
    },
  };
}
