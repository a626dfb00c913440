import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { WorkloadParam } from '../../schemas/workload.js';
import { workloadAccess } from './access.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/tenants/{t}/workloads/{workload}',
  tags: ['workloads'],
  summary: 'Delete a workload: stop and destroy its VM, remove its published names',
  security: [{ bearer: [] }],
  request: { params: WorkloadParam },
  responses: {
    204: { description: 'deleted; its ordinal is free again' },
    ...errorResponses(400, 401, 404, 409, 501, 502, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, workload } = c.req.valid('param');
    const { ops, actor } = await workloadAccess(c, deps, t);
    const result = await ops.delete({ tenant: t, name: workload, actor });
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, {});
    return c.body(null, 204);
  });
}
