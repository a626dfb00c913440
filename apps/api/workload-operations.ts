import type { Client } from '@temporalio/client';
import { viewWorkload, type WorkloadView } from '../../activities/workloads/view.js';
import { getWorkload, listWorkloads } from '../../db/queries/workloads.js';
import { tenantExists } from '../../db/queries/tenants.js';
import type { Registry } from '../../db/registry.js';
import { workloadCreate, workloadDelete } from '../../workflows/index.js';
import {
  attemptWorkloadCreate,
  type WorkloadDeleteResult,
  type WorkloadRequest,
  type WorkloadResult,
} from '../../workflows/contracts/workload.js';
import type { Site } from '../../core/site.js';
import { runs } from './runs.js';
import { runIds } from '../../workflows/contracts/ids.js';

/** What the workload routes ask of the service: create and delete on Temporal, reads from the registry. */
export interface WorkloadOperations {
  create(req: WorkloadRequest): Promise<WorkloadResult>;
  delete(req: { tenant: string; name: string; actor: string }): Promise<WorkloadDeleteResult>;
  get(tenant: string, name: string): Promise<WorkloadView | undefined>;
  list(tenant: string): Promise<WorkloadView[]>;
  tenantRegistered(tenant: string): Promise<boolean>;
}

export interface PublishingDeps {
  site: Site;
  registry: Registry;
  client: Client;
  taskQueue: string;
}

export function workloadOperations(deps: PublishingDeps): WorkloadOperations {
  const { site, registry, client, taskQueue } = deps;
  const db = registry.db;
  const run = runs(client, taskQueue);
  return {
    create: (req) =>
      run.attempt(workloadCreate, attemptWorkloadCreate, { workflowId: runIds.workloadCreate(req.tenant, req.name), args: [{ tenant: req.tenant, name: req.name }], tenant: req.tenant }, req),
    delete: (req) => run.execute(workloadDelete, { workflowId: runIds.workloadDelete(req.tenant, req.name), args: [req], tenant: req.tenant }),
    async get(tenant, name) {
      const row = await getWorkload(db, tenant, name);
      return row ? viewWorkload(site, row) : undefined;
    },
    async list(tenant) {
      return (await listWorkloads(db, tenant)).map((r) => viewWorkload(site, r));
    },
    tenantRegistered: (tenant) => tenantExists(db, tenant),
  };
}
