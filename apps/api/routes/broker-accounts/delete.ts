import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { BrokerAccountParams } from '../../schemas/broker-account.js';
import { errorResponses } from '../../schemas/common.js';
import { brokerAccess } from './access.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}/broker-accounts/{account}', tags: ['broker accounts'], ...bearer,
  summary: 'Delete a broker account: its next connection is refused',
  request: { params: BrokerAccountParams },
  responses: { 204: { description: 'deleted' }, ...errorResponses(400, 401, 404, 409, 501, 502, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, account } = c.req.valid('param');
  const ops = await brokerAccess(c, deps, t);
  settle(await ops.delete(t, account));
  return c.body(null, 204);
});
