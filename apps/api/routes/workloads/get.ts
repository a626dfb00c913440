import { Workload, WorkloadParam } from '../../schemas/workload.js';
import { getRoute } from '../shapes.js';
import { workloadAccess } from './access.js';

export const { route, register } = getRoute({
  path: '/v1/tenants/{t}/workloads/{workload}',
  tag: 'workloads',
  summary: 'One workload',
  params: WorkloadParam,
  answer: ['the workload', Workload],
  missing: 'workload not found',
  read: async (c, deps, { t, workload }) => (await workloadAccess(c, deps, t)).ops.get(t, workload),
});
