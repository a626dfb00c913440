import { runs } from '../../apps/api/runs.js';
import { runIds } from '../../contracts/ids.js';
import { attemptTenantCreate } from '../../contracts/tenant.js';
import { attemptWorkloadCreate, type WorkloadRequest } from '../../contracts/workload.js';
import { tenantCreate, workloadCreate } from '../../workflows/index.js';
import type { WorkflowTestEnv } from './workflow-env.js';

/**
 * The API's own calls into the runs of `env()` (apps/api/runs.ts), each run parking for
 * `parkedMs` after a failed attempt: a getter, since a file starts its environment in beforeAll.
 */
export function apiRuns(env: () => WorkflowTestEnv, parkedMs: number) {
  const api = () => runs(env().env.client, env().taskQueue, parkedMs);
  return {
    api,
    /** POST /v1/tenants for `name`. */
    createTenant: (name: string) =>
      api().attempt(
        tenantCreate,
        attemptTenantCreate,
        { workflowId: runIds.tenantCreate(name), args: [{ name, parkedTimeoutMs: parkedMs }], tenant: name },
        { name },
      ),
    /** POST /v1/tenants/{t}/workloads for `r`. */
    createWorkload: (r: WorkloadRequest) =>
      api().attempt(
        workloadCreate,
        attemptWorkloadCreate,
        { workflowId: runIds.workloadCreate(r.tenant, r.name), args: [{ tenant: r.tenant, name: r.name, parkedTimeoutMs: parkedMs }], tenant: r.tenant },
        r,
      ),
  };
}
