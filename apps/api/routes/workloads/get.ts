import { createRoute } from '@hono/zod-openapi';
import { found } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { Workload, WorkloadParam } from '../../schemas/workload.js';
import { workloadAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/workloads/{workload}', tags: ['workloads'], ...bearer,
  summary: 'One workload',
  request: { params: WorkloadParam },
  responses: { 200: answer('the workload', Workload), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, workload } = c.req.valid('param');
  const { ops } = await workloadAccess(c, deps, t);
  return c.json(found(await ops.get(t, workload), 'workload not found'), 200);
});
