import { createRoute } from '@hono/zod-openapi';
import { notFound } from '../../errors.js';
import { CertificateParams } from '../../schemas/certificate.js';
import { errorResponses } from '../../schemas/common.js';
import { certificateAccess } from './access.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}/certificates/{certificate}', tags: ['certificates'], ...bearer,
  summary: 'Forget a certificate; it is not revoked and stays valid until it expires',
  request: { params: CertificateParams },
  responses: { 204: { description: 'forgotten' }, ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, certificate } = c.req.valid('param');
  const ops = await certificateAccess(c, deps, t);
  if (!(await ops.delete(t, certificate))) throw notFound('certificate not found');
  return c.body(null, 204);
});
