import { WorkloadParam } from '../../schemas/workload.js';
import { resource } from '../shapes.js';
import { tenantAccess } from '../tenant-access.js';

/** The caller may manage the tenant's workloads (operator or the tenant itself) and the tenant is registered. */
export const workloads = resource({
  tag: 'workloads',
  item: '/v1/tenants/{t}/workloads/{workload}',
  params: WorkloadParam,
  access: (c, deps, t) => tenantAccess(c, t, deps.workloads, 'no site configured'),
});
