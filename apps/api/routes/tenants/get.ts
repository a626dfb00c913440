import { createRoute } from '@hono/zod-openapi';
import { requireTenantAccess } from '../../auth/authorize.js';
import { found } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { Tenant } from '../../schemas/tenant.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}', tags: ['tenants'], ...bearer,
  summary: 'One tenant, without secrets',
  request: { params: TenantParam },
  responses: { 200: answer('the tenant', Tenant), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  requireTenantAccess(c, t);
  return c.json(found(await deps.operations!.get(t), 'tenant not found'), 200);
});
