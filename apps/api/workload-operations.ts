import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { viewWorkload, type WorkloadView } from '../../activities/workloads/view.js';
import { getWorkload, listWorkloads } from '../../db/queries/workloads.js';
import { tenantExists } from '../../db/queries/tenants.js';
import type { Registry } from '../../db/registry.js';
import { startOptions } from '../../temporal/start-options.js';
import {
  attemptWorkload,
  workloadIds,
  type WorkloadDeleteResult,
  type WorkloadRequest,
  type WorkloadResult,
} from '../../workflows/workload-shared.js';
import type { Site } from '../../core/site.js';
import { runUnavailable } from './errors.js';

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

/**
 * Delivers one call as an update to the object's run, starting the run when none is open. A run
 * that is just completing refuses new updates; the next try starts a fresh run.
 */
export async function updateWithStart<Res, Req>(
  client: Client,
  update: Parameters<Client['workflow']['executeUpdateWithStart']>[0],
  workflowType: string,
  opts: { workflowId: string; args: unknown[]; start: ReturnType<typeof startOptions> },
  req: Req,
): Promise<Res> {
  for (let attempt = 1; ; attempt++) {
    const startWorkflowOperation = new WithStartWorkflowOperation(workflowType, { workflowId: opts.workflowId, args: opts.args, ...opts.start });
    try {
      return (await client.workflow.executeUpdateWithStart(update, { args: [req], startWorkflowOperation })) as Res;
    } catch (err) {
      if (attempt < 3 && /completed|not found|closed/i.test(String((err as Error).message))) continue;
      throw runUnavailable(err);
    }
  }
}

export function workloadOperations(deps: PublishingDeps): WorkloadOperations {
  const { site, registry, client, taskQueue } = deps;
  const db = registry.db;
  return {
    create: (req) =>
      updateWithStart<WorkloadResult, WorkloadRequest>(client, attemptWorkload, 'workloadCreate', {
        workflowId: workloadIds.create(req.tenant, req.name),
        args: [{ tenant: req.tenant, name: req.name }],
        start: startOptions(taskQueue, 'workload-create', req.tenant),
      }, req),
    async delete(req) {
      return client.workflow
        .execute('workloadDelete', { workflowId: workloadIds.delete(req.tenant, req.name), args: [req], ...startOptions(taskQueue, 'workload-delete', req.tenant) })
        .catch((err: unknown) => Promise.reject(runUnavailable(err)));
    },
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
