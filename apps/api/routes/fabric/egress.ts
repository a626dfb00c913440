import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { listReadyTenants } from '../../../../db/queries/tenants.js';
import { requireEgressReader } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { errorResponses } from '../../schemas/common.js';

const Egress = z
  .object({ vrfs: z.array(z.object({ tenant: z.string(), vrf: z.string() })) })
  .openapi('Egress');

export const route = createRoute({
  method: 'get',
  path: '/v1/fabric/egress',
  tags: ['fabric'],
  summary: "Every ready tenant's VRF, for the exit node's agent",
  security: [{ bearer: [] }],
  responses: {
    200: { description: 'VRFs of ready tenants', content: { 'application/json': { schema: Egress } } },
    ...errorResponses(401, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    requireEgressReader(c);
    const ready = await listReadyTenants(deps.registry.db);
    return c.json({ vrfs: ready.map((t) => ({ tenant: t.name, vrf: `vrf_${t.name}` })) }, 200);
  });
}
