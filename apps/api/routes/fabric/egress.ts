import { createRoute, z } from '@hono/zod-openapi';
import { listReadyTenants } from '../../../../db/queries/tenants.js';
import { requireEgressReader } from '../../auth/authorize.js';
import { bearer, handle, responses } from '../kit.js';

const Egress = z.object({ vrfs: z.array(z.object({ tenant: z.string(), vrf: z.string() })) }).openapi('Egress');

export const route = createRoute({
  method: 'get',
  path: '/v1/fabric/egress',
  tags: ['fabric'],
  ...bearer,
  summary: "Every ready tenant's VRF, for the exit node's agent",
  responses: responses({ 200: ['VRFs of ready tenants', Egress] }, [400, 401, 503]),
});

export const register = handle(route, async (c, deps) => {
  requireEgressReader(c);
  const ready = await listReadyTenants(deps.registry.db);
  return c.json({ vrfs: ready.map((t) => ({ tenant: t.name, vrf: `vrf_${t.name}` })) }, 200);
});
