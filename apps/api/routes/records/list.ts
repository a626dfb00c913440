import { createRoute } from '@hono/zod-openapi';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { RecordList } from '../../schemas/record.js';
import { recordAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/records', tags: ['records'], ...bearer,
  summary: 'The names the tenant added, by name',
  request: { params: TenantParam },
  responses: { 200: answer('records', RecordList), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const { ops } = await recordAccess(c, deps, t);
  return c.json({ records: await ops.list(t) }, 200);
});
