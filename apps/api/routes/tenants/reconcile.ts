import { createRoute } from '@hono/zod-openapi';
import { requireOperator } from '../../auth/authorize.js';
import { settle } from '../../errors.js';
import { TenantParam } from '../../schemas/common.js';
import { Tenant, TenantCreateFailure } from '../../schemas/tenant.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'post', path: '/v1/tenants/{t}/reconcile', tags: ['tenants'], ...bearer,
  summary: 'Re-ensure every backend of a tenant',
  request: { params: TenantParam },
  responses: responses(
    { 200: ['reconciled; carries the log tokens and the dashboard password only', Tenant] },
    [400, 401, 403, 404, 409, 501, 503],
    ['a backend step failed', TenantCreateFailure],
  ),
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  requireOperator(c);
  const result = settle(await deps.operations!.reconcile(t), (failed) => ({ tenant: failed.tenant }));
  return c.json(result.tenant, 200);
});
