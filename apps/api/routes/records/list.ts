import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { RecordList } from '../../schemas/record.js';
import { recordAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/records',
  tags: ['records'],
  summary: 'The names the tenant added, by name',
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'records', content: { 'application/json': { schema: RecordList } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const { ops } = await recordAccess(c, deps, t);
    return c.json({ records: await ops.list(t) }, 200);
  });
}
