import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { notFound } from '../../errors.js';
import { BrokerAccount, BrokerAccountParams } from '../../schemas/broker-account.js';
import { errorResponses } from '../../schemas/common.js';
import { brokerAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/broker-accounts/{account}',
  tags: ['broker accounts'],
  summary: 'One broker account, without password',
  security: [{ bearer: [] }],
  request: { params: BrokerAccountParams },
  responses: {
    200: { description: 'the account', content: { 'application/json': { schema: BrokerAccount } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, account } = c.req.valid('param');
    const ops = await brokerAccess(c, deps, t);
    const found = await ops.get(t, account);
    if (!found) throw notFound('broker account not found');
    return c.json(found, 200);
  });
}
