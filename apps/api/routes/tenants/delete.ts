import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { requireTenantAccess } from '../../auth/authorize.js';
import { auditTenantDelete } from '../../../../db/queries/audit.js';
import { actorOf } from '../../auth/caller.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
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
    // Read first: the audit entry names the zones the delete removes, and the row goes with them.
    const before = await deps.operations!.get(t);
    const result = await deps.operations!.delete(t);
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, {});
    if (before) await auditTenantDelete(deps.registry.db, { actor: actorOf(c.var.caller), tenant: t, zones: before.dns });
    return c.body(null, 204);
  });
}
