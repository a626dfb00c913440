import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { WorkloadList } from '../../schemas/workload.js';
import { workloadAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/workloads',
  tags: ['workloads'],
  summary: "The tenant's workloads, by ordinal",
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'workloads', content: { 'application/json': { schema: WorkloadList } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const { ops } = await workloadAccess(c, deps, t);
    return c.json({ workloads: await ops.list(t) }, 200);
  });
}
