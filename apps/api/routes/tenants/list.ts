import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { requireOperator } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { errorResponses } from '../../schemas/common.js';
import { TenantList } from '../../schemas/tenant.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants',
  tags: ['tenants'],
  summary: 'Every tenant, ordered by index, without secrets',
  security: [{ bearer: [] }],
  responses: {
    200: { description: 'tenants', content: { 'application/json': { schema: TenantList } } },
    ...errorResponses(401, 403, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    requireOperator(c);
    return c.json({ tenants: await deps.operations!.list() }, 200);
  });
}
