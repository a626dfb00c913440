import { createRoute } from '@hono/zod-openapi';
import { badRequest, stepFailed } from '../../errors.js';
import { Certificate, CertificateParams, CertificateRequest } from '../../schemas/certificate.js';
import { errorResponses } from '../../schemas/common.js';
import { certificateAccess } from './access.js';
import { idempotent } from '../../idempotency/contract.js';
import { answer, bearer, handle, jsonBody } from '../kit.js';

export const route = createRoute(idempotent({
  method: 'put', path: '/v1/tenants/{t}/certificates/{certificate}', tags: ['certificates'], ...bearer,
  summary: 'Get a server certificate for `<certificate>.<tenant zone>` (and further labels) from the tenant service CA',
  description:
    'Only the request\'s public key is used. The same key and names with more than 60 days left give the current ' +
    'certificate (200); a new key, changed names, or 60 days or less left issue a new one (201). Nothing is revoked.',
  request: { params: CertificateParams, body: jsonBody(CertificateRequest) },
  responses: {
    200: answer('the current certificate, already issued for this key and these names', Certificate),
    201: answer('a certificate issued by this call', Certificate),
    ...errorResponses(400, 401, 404, 413, 501, 502, 503),
  },
}));

export const register = handle(route, async (c, deps) => {
  const { t, certificate } = c.req.valid('param');
  const body = c.req.valid('json');
  const ops = await certificateAccess(c, deps, t);
  const result = await ops.put({ tenant: t, name: certificate, csr: body.csr, names: body.names ?? [] });
  if (result.kind === 'invalid') throw badRequest(result.reason);
  if (result.kind === 'failed') throw stepFailed(result.step, {});
  return c.json(result.certificate, result.kind === 'issued' ? 201 : 200);
});
