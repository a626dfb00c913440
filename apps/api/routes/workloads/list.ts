import { WorkloadList } from '../../schemas/workload.js';
import { workloads } from './resource.js';

export const { route, register } = workloads.list({
  summary: "The tenant's workloads, by ordinal",
  answer: ['workloads', WorkloadList],
  list: async ({ ops }, t) => ({ workloads: await ops.list(t) }),
});
