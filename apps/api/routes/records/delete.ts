import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { RecordParam } from '../../schemas/record.js';
import { recordAccess } from './access.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/tenants/{t}/records/{record}',
  tags: ['records'],
  summary: 'Remove a name the tenant added (and its PTR)',
  security: [{ bearer: [] }],
  request: { params: RecordParam },
  responses: {
    204: { description: 'removed' },
    ...errorResponses(400, 401, 404, 409, 501, 502, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, record } = c.req.valid('param');
    const { ops, actor } = await recordAccess(c, deps, t);
    const result = await ops.delete({ tenant: t, name: record, actor });
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, {});
    return c.body(null, 204);
  });
}
