import { createRoute } from '@hono/zod-openapi';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { WorkloadList } from '../../schemas/workload.js';
import { workloadAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/workloads', tags: ['workloads'], ...bearer,
  summary: "The tenant's workloads, by ordinal",
  request: { params: TenantParam },
  responses: { 200: answer('workloads', WorkloadList), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const { ops } = await workloadAccess(c, deps, t);
  return c.json({ workloads: await ops.list(t) }, 200);
});
