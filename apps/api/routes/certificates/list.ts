import { createRoute } from '@hono/zod-openapi';
import { CertificateList } from '../../schemas/certificate.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { certificateAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/certificates', tags: ['certificates'], ...bearer,
  summary: 'The tenant\'s certificates: one per name, the current one',
  request: { params: TenantParam },
  responses: { 200: answer('certificates', CertificateList), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const ops = await certificateAccess(c, deps, t);
  return c.json({ certificates: await ops.list(t) }, 200);
});
