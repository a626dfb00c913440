import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { BrokerAccountParams } from '../../schemas/broker-account.js';
import { errorResponses } from '../../schemas/common.js';
import { brokerAccess } from './access.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/tenants/{t}/broker-accounts/{account}',
  tags: ['broker accounts'],
  summary: 'Delete a broker account: its next connection is refused',
  security: [{ bearer: [] }],
  request: { params: BrokerAccountParams },
  responses: {
    204: { description: 'deleted' },
    ...errorResponses(400, 401, 404, 409, 501, 502, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, account } = c.req.valid('param');
    const ops = await brokerAccess(c, deps, t);
    const result = await ops.delete(t, account);
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, {});
    return c.body(null, 204);
  });
}
