import { createRoute } from '@hono/zod-openapi';
import { found } from '../../errors.js';
import { Certificate, CertificateParams } from '../../schemas/certificate.js';
import { errorResponses } from '../../schemas/common.js';
import { certificateAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/certificates/{certificate}', tags: ['certificates'], ...bearer,
  summary: 'The current certificate of a name',
  request: { params: CertificateParams },
  responses: { 200: answer('the current certificate', Certificate), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, certificate } = c.req.valid('param');
  const ops = await certificateAccess(c, deps, t);
  return c.json(found(await ops.get(t, certificate), 'certificate not found'), 200);
});
