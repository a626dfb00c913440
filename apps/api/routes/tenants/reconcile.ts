import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { requireOperator } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { Tenant, TenantCreateFailure } from '../../schemas/tenant.js';

export const route = createRoute({
  method: 'post',
  path: '/v1/tenants/{t}/reconcile',
  tags: ['tenants'],
  summary: 'Re-ensure every backend of a tenant',
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'reconciled; carries the log tokens and the dashboard password only', content: { 'application/json': { schema: Tenant } } },
    ...errorResponses(400, 401, 403, 404, 409, 501),
    502: { description: 'a backend step failed', content: { 'application/json': { schema: TenantCreateFailure } } },
    ...errorResponses(503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    requireOperator(c);
    const result = await deps.operations!.reconcile(t);
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, { tenant: result.tenant });
    return c.json(result.tenant, 200);
  });
}
