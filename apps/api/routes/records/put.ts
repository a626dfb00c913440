import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { Record, RecordParam, RecordPutRequest } from '../../schemas/record.js';
import { recordAccess } from './access.js';
import { idempotent } from '../../idempotency/contract.js';

export const route = createRoute(idempotent({
  method: 'put',
  path: '/v1/tenants/{t}/records/{record}',
  tags: ['records'],
  summary: 'Publish `<record>.<zone>` for an address (an ensure)',
  description:
    "An address of the tenant's subnet is published with its PTR; an address the tenant reserved for one of its devices " +
    "gets a second name with no PTR. A workload's name, a device's published name, or a name the tenant published itself " +
    'with its update key is refused.',
  security: [{ bearer: [] }],
  request: {
    params: RecordParam,
    body: { required: true, content: { 'application/json': { schema: RecordPutRequest } } },
  },
  responses: {
    200: { description: 'the record', content: { 'application/json': { schema: Record } } },
    ...errorResponses(400, 401, 404, 409, 413, 501, 502, 503),
  },
}));

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, record } = c.req.valid('param');
    const body = c.req.valid('json');
    const { ops, actor } = await recordAccess(c, deps, t);
    const result = await ops.put({ tenant: t, name: record, address: body.address, actor });
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, {});
    return c.json(result.record, 200);
  });
}
