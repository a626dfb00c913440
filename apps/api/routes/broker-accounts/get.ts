import { createRoute } from '@hono/zod-openapi';
import { found } from '../../errors.js';
import { BrokerAccount, BrokerAccountParams } from '../../schemas/broker-account.js';
import { errorResponses } from '../../schemas/common.js';
import { brokerAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/broker-accounts/{account}', tags: ['broker accounts'], ...bearer,
  summary: 'One broker account, without password',
  request: { params: BrokerAccountParams },
  responses: { 200: answer('the account', BrokerAccount), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, account } = c.req.valid('param');
  const ops = await brokerAccess(c, deps, t);
  return c.json(found(await ops.get(t, account), 'broker account not found'), 200);
});
