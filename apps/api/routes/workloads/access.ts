import type { Context } from 'hono';
import { actorOf } from '../../auth/caller.js';
import { requireTenantAccess } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { notConfigured, tenantNotFound } from '../../errors.js';
import type { WorkloadOperations } from '../../operations/workload.js';

/** The caller may manage the tenant's workloads (operator or the tenant itself) and the tenant is registered. */
export async function workloadAccess(c: Context<AppEnv>, deps: AppDeps, tenant: string): Promise<{ ops: WorkloadOperations; actor: string }> {
  const caller = requireTenantAccess(c, tenant);
  const ops = deps.workloads;
  if (!ops) throw notConfigured('no site configured');
  if (!(await ops.tenantRegistered(tenant))) throw tenantNotFound();
  return { ops, actor: actorOf(caller) };
}
