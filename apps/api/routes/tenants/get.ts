import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { requireTenantAccess } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { tenantNotFound } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { Tenant } from '../../schemas/tenant.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}',
  tags: ['tenants'],
  summary: 'One tenant, without secrets',
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'the tenant', content: { 'application/json': { schema: Tenant } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    requireTenantAccess(c, t);
    const tenant = await deps.operations!.get(t);
    if (!tenant) throw tenantNotFound();
    return c.json(tenant, 200);
  });
}
