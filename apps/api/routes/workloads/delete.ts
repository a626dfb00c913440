import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { WorkloadParam } from '../../schemas/workload.js';
import { workloadAccess } from './access.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}/workloads/{workload}', tags: ['workloads'], ...bearer,
  summary: 'Delete a workload: stop and destroy its VM, remove its published names',
  request: { params: WorkloadParam },
  responses: { 204: { description: 'deleted; its ordinal is free again' }, ...errorResponses(400, 401, 404, 409, 501, 502, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, workload } = c.req.valid('param');
  const { ops, actor } = await workloadAccess(c, deps, t);
  settle(await ops.delete({ tenant: t, name: workload, actor }));
  return c.body(null, 204);
});
