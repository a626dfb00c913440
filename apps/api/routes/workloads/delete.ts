import { settle } from '../../errors.js';
import { WorkloadParam } from '../../schemas/workload.js';
import { deleteRoute } from '../shapes.js';
import { workloadAccess } from './access.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}/workloads/{workload}',
  tag: 'workloads',
  summary: 'Delete a workload: stop and destroy its VM, remove its published names',
  params: WorkloadParam,
  done: 'deleted; its ordinal is free again',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async (c, deps, { t, workload }) => {
    const { ops, actor } = await workloadAccess(c, deps, t);
    settle(await ops.delete({ tenant: t, name: workload, actor }));
  },
});
