import { createRoute } from '@hono/zod-openapi';
import { TenantList } from '../../schemas/tenant.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants',
  tags: ['tenants'],
  ...bearer,
  summary: 'Every tenant, ordered by index, without secrets',
  responses: responses({ 200: ['tenants', TenantList] }, [401, 403, 501, 503]),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  return c.json({ tenants: await deps.operations!.list() }, 200);
});
