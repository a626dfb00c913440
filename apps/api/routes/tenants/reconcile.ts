import { createRoute } from '@hono/zod-openapi';
import { requireOperator } from '../../auth/authorize.js';
import { settle } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { Tenant, TenantCreateFailure } from '../../schemas/tenant.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'post', path: '/v1/tenants/{t}/reconcile', tags: ['tenants'], ...bearer,
  summary: 'Re-ensure every backend of a tenant',
  request: { params: TenantParam },
  responses: {
    200: answer('reconciled; carries the log tokens and the dashboard password only', Tenant),
    ...errorResponses(400, 401, 403, 404, 409, 501),
    502: answer('a backend step failed', TenantCreateFailure),
    ...errorResponses(503),
  },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  requireOperator(c);
  const result = settle(await deps.operations!.reconcile(t), (failed) => ({ tenant: failed.tenant }));
  return c.json(result.tenant, 200);
});
