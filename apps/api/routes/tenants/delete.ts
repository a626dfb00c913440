import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { requireTenantAccess } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { ApiError, fromRefusal } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/tenants/{t}',
  tags: ['tenants'],
  summary: 'Delete a tenant and its backend objects (not its fabric network)',
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    204: { description: 'deleted' },
    ...errorResponses(400, 401, 404, 409, 501, 502, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    requireTenantAccess(c, t);
    const result = await deps.operations!.delete(t);
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw new ApiError('backend_failed', `backend step "${result.step}" failed`);
    return c.body(null, 204);
  });
}
