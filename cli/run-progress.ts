import type { ApiClient, Schemas } from '../client/index.js';

type Operation = Schemas['RunSummary']['operation'];

/** The run a command's call starts or resumes: its tenant, operation, and object (its path below `/v1/`). */
export interface WatchedRun {
  tenant: string;
  operation: Operation;
  object: string;
}

/** The line of a step the run is at: a step area (`hypervisor`, `dns`), as the run's `Step` says. */
export const atStepLine = (step: string) => `  … ${step}`;

/**
 * Live progress of any object's call (a workload's create, a record's put, a key's revoke...):
 * while the call runs, the tenant's runs are read every `everyMs`, and each step the object's run
 * moves to (its `step`, from Temporal's visibility) is reported once, as it is reached. The step
 * activities the run ran, passed or failed, come with the answer (`Run-Steps`, reportRanSteps).
 * A token that cannot list runs (an enrollment token) sees only those.
 */
export function watchRun(api: ApiClient, run: WatchedRun, report: (line: string) => void, everyMs = 300) {
  let last: string | undefined;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (stopped) break;
      const r = await api
        .GET('/v1/tenants/{t}/runs', { params: { path: { t: run.tenant }, query: { operation: run.operation, status: 'running', limit: 5 } } })
        .catch(() => undefined);
      const step = r?.data?.runs.find((x) => x.object === run.object)?.step;
      if (stopped || !step || step === 'done' || step === last) continue;
      last = step;
      report(atStepLine(step));
    }
  })();
  return {
    async finish(): Promise<void> {
      stopped = true;
      await loop;
    },
  };
}
