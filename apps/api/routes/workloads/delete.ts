import { settle } from '../../errors.js';
import { workloads } from './resource.js';

export const { route, register } = workloads.delete({
  summary: 'Delete a workload: stop and destroy its VM, remove its published names',
  done: 'deleted; its ordinal is free again',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async ({ ops, actor }, { t, workload }) => void settle(await ops.delete({ tenant: t, name: workload, actor })),
});
