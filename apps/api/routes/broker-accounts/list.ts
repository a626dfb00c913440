import { createRoute } from '@hono/zod-openapi';
import { BrokerAccountList } from '../../schemas/broker-account.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { brokerAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/broker-accounts', tags: ['broker accounts'], ...bearer,
  summary: 'The tenant\'s broker accounts, by name, never a password',
  request: { params: TenantParam },
  responses: { 200: answer('broker accounts', BrokerAccountList), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const ops = await brokerAccess(c, deps, t);
  return c.json({ broker_accounts: await ops.list(t) }, 200);
});
