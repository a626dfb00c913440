import { Workload } from '../../schemas/workload.js';
import { workloads } from './resource.js';

export const { route, register } = workloads.get({
  summary: 'One workload',
  answer: ['the workload', Workload],
  missing: 'workload not found',
  read: ({ ops }, { t, workload }) => ops.get(t, workload),
});
