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
import { runIds } from '../../../contracts/ids.js';
import { objectPath } from '../conditions.js';
import { objectOperations } from './object-operations.js';
import type { ObjectReads } from './object-reads.js';
import { objectDeps, type PublishingDeps } from './published-reads.js';

/** What the workload routes ask of the service: create and delete on Temporal, reads from the registry. */
export interface WorkloadOperations extends ObjectReads<WorkloadView> {
  create(req: WorkloadRequest): Promise<WorkloadResult>;
  delete(req: { tenant: string; name: string; actor: string }): Promise<WorkloadDeleteResult>;
}

export function workloadOperations(deps: PublishingDeps): WorkloadOperations {
  const { write, remove, ...reads } = objectOperations(objectDeps(deps), {
    noun: 'workload',
    reads: {
      get: getWorkload,
      list: listWorkloads,
      view: (row) => viewWorkload(deps.site, row),
      path: objectPath.workload,
      finished: (row) => row.status === 'ready',
    },
    write: { workflow: workloadCreate, update: attemptWorkloadCreate, id: runIds.workloadCreate },
    remove: { workflow: workloadDelete, update: attemptWorkloadDelete, id: runIds.workloadDelete },
  });
  return { ...reads, create: (req) => write(req), delete: remove };
}
