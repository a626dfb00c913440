import { createRoute } from '@hono/zod-openapi';
import { requireTenantAccess } from '../../auth/authorize.js';
import { notConfigured, tenantNotFound } from '../../errors.js';
import { TenantParam } from '../../schemas/common.js';
import { RunList, RunListQuery } from '../../schemas/run.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/runs',
  tags: ['runs'],
  ...bearer,
  summary: 'The runs of a tenant and its objects, newest first: operation, object, status, outcome, failed steps',
  description:
    "From Temporal's visibility store, with the failed step and the backend's answer the registry keeps for a parked run. The tenant's own token sees its own; the operator sees any (and `GET /v1/runs` every tenant's, a deleted one's too).",
  request: { params: TenantParam, query: RunListQuery },
  responses: responses({ 200: ['runs', RunList] }, [400, 401, 404, 501, 503]),
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  requireTenantAccess(c, t);
  if (!deps.runList || !deps.operations) throw notConfigured('no site is configured');
  if (!(await deps.operations.isRegistered(t))) throw tenantNotFound();
  return c.json(await deps.runList.list({ ...c.req.valid('query'), tenant: t }), 200);
});
