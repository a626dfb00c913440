import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { BrokerAccountList } from '../../schemas/broker-account.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { brokerAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/broker-accounts',
  tags: ['broker accounts'],
  summary: 'The tenant\'s broker accounts, by name, never a password',
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'broker accounts', content: { 'application/json': { schema: BrokerAccountList } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const ops = await brokerAccess(c, deps, t);
    return c.json({ broker_accounts: await ops.list(t) }, 200);
  });
}
