import { createRoute, z } from '@hono/zod-openapi';
import { TenantList } from '../../schemas/tenant.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants',
  tags: ['tenants'],
  ...bearer,
  summary: 'Every tenant, ordered by index, without secrets',
  request: {
    query: z.object({
      canaries: z
        .enum(['true', 'false'])
        .optional()
        .openapi({ description: "also the isolation check's two canary tenants (`canarya`, `canaryb`), which the list leaves out by default" }),
    }),
  },
  responses: responses({ 200: ['tenants', TenantList] }, [400, 401, 403, 501, 503]),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  return c.json({ tenants: await deps.operations!.list({ canaries: c.req.valid('query').canaries === 'true' }) }, 200);
});
