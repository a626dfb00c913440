import { createRoute } from '@hono/zod-openapi';
import { requireTenantAccess } from '../../auth/authorize.js';
import { auditTenantDelete } from '../../../../db/queries/audit.js';
import { actorOf } from '../../auth/caller.js';
import { settle } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}', tags: ['tenants'], ...bearer,
  summary: 'Delete a tenant and its backend objects (not its fabric network)',
  request: { params: TenantParam },
  responses: { 204: { description: 'deleted' }, ...errorResponses(400, 401, 404, 409, 501, 502, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  requireTenantAccess(c, t);
  // Read first: the audit entry names the zones the delete removes, and the row goes with them.
  const before = await deps.operations!.get(t);
  settle(await deps.operations!.delete(t));
  if (before) await auditTenantDelete(deps.registry.db, { actor: actorOf(c.var.caller), tenant: t, zones: before.dns });
  return c.body(null, 204);
});
