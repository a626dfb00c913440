import type { WorkloadView } from '../../../core/views/workload.js';
import { viewWorkload } from '../../../db/views/workload.js';
import { getWorkload, listWorkloads } from '../../../db/queries/workloads.js';
import { workloadCreate, workloadDelete } from '../../../workflows/index.js';
import {
  attemptWorkloadCreate,
  attemptWorkloadDelete,
  type WorkloadDeleteResult,
  type WorkloadRequest,
  type WorkloadResult,
} from '../../../contracts/workload.js';
import { published, type PublishedReads, type PublishingDeps } from './published-reads.js';
import { runIds } from '../../../contracts/ids.js';
import { objectPath } from '../conditions.js';

/** What the workload routes ask of the service: create and delete on Temporal, reads from the registry. */
export interface WorkloadOperations extends PublishedReads<WorkloadView> {
  create(req: WorkloadRequest): Promise<WorkloadResult>;
  delete(req: { tenant: string; name: string; actor: string }): Promise<WorkloadDeleteResult>;
}

export function workloadOperations(deps: PublishingDeps): WorkloadOperations {
  const { run, ...reads } = published(deps, {
    get: getWorkload,
    list: listWorkloads,
    view: viewWorkload,
    path: objectPath.workload,
    finished: (row) => row.status === 'ready',
  });
  return Object.assign(reads, {
    create: (req) =>
      run.attempt(
        workloadCreate,
        attemptWorkloadCreate,
        {
          workflowId: runIds.workloadCreate(req.tenant, req.name),
          args: [{ tenant: req.tenant, name: req.name, parkedTimeoutMs: deps.parkedTimeoutMs }],
          tenant: req.tenant,
          object: `workload ${req.name}`,
        },
        req,
      ),
    delete: async (req) =>
      run.superseded(
        await run.call(
          workloadDelete,
          attemptWorkloadDelete,
          { workflowId: runIds.workloadDelete(req.tenant, req.name), tenant: req.tenant, object: `workload ${req.name}` },
          req,
        ),
        'deleted',
        [runIds.workloadCreate(req.tenant, req.name)],
      ),
  } satisfies Pick<WorkloadOperations, 'create' | 'delete'>);
}
