import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { notFound } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { Workload, WorkloadParam } from '../../schemas/workload.js';
import { workloadAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/workloads/{workload}',
  tags: ['workloads'],
  summary: 'One workload',
  security: [{ bearer: [] }],
  request: { params: WorkloadParam },
  responses: {
    200: { description: 'the workload', content: { 'application/json': { schema: Workload } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, workload } = c.req.valid('param');
    const { ops } = await workloadAccess(c, deps, t);
    const found = await ops.get(t, workload);
    if (!found) throw notFound('workload not found');
    return c.json(found, 200);
  });
}
