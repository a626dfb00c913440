import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { RecordParam } from '../../schemas/record.js';
import { recordAccess } from './access.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}/records/{record}', tags: ['records'], ...bearer,
  summary: 'Remove a name the tenant added (and its PTR)',
  request: { params: RecordParam },
  responses: { 204: { description: 'removed' }, ...errorResponses(400, 401, 404, 409, 501, 502, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, record } = c.req.valid('param');
  const { ops, actor } = await recordAccess(c, deps, t);
  settle(await ops.delete({ tenant: t, name: record, actor }));
  return c.body(null, 204);
});
