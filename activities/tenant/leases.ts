import { Context } from '@temporalio/activity';
import { claimTenant, releaseTenant, type LeaseClaim, type LeaseMode } from '../../db/queries/tenant-leases.js';
import type { ActivityDeps } from '../deps.js';

/** The run calling: a lease is held by one run of one workflow. */
function holder(): string {
  const run = Context.current().info.workflowExecution;
  if (!run) throw new Error('a tenant lease is claimed from a workflow run');
  const { workflowId, runId } = run;
  return `${workflowId}/${runId}`;
}

/** Claiming and releasing a tenant for the calling run (db/queries/tenant-leases.ts). */
export function leaseActivities(deps: ActivityDeps) {
  return {
    claimTenant: (input: { tenant: string; mode: LeaseMode; operation: string }): Promise<LeaseClaim> => claimTenant(deps.db, { ...input, holder: holder() }),
    releaseTenant: (input: { tenant: string }): Promise<void> => releaseTenant(deps.db, input.tenant, holder()),
  };
}
