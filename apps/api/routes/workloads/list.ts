import { WorkloadList } from '../../schemas/workload.js';
import { listRoute } from '../shapes.js';
import { workloadAccess } from './access.js';

export const { route, register } = listRoute({
  path: '/v1/tenants/{t}/workloads',
  tag: 'workloads',
  summary: "The tenant's workloads, by ordinal",
  answer: ['workloads', WorkloadList],
  list: async (c, deps, t) => ({ workloads: await (await workloadAccess(c, deps, t)).ops.list(t) }),
});
