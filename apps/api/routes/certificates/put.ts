import { badRequest, stepFailed } from '../../errors.js';
import { Certificate, CertificateRequest } from '../../schemas/certificate.js';
import { certificates } from './resource.js';

export const { route, register } = certificates.write({
  method: 'put',
  summary: 'Get a server certificate for `<certificate>.<tenant zone>` (and further labels) from the tenant service CA',
  description:
    "Only the request's public key is used. The same key and names with more than 60 days left give the current " +
    'certificate (200); a new key, changed names, or 60 days or less left issue a new one (201). Nothing is revoked.',
  body: CertificateRequest,
  errors: [400, 401, 404, 413, 501, 502, 503],
  answers: {
    200: ['the current certificate, already issued for this key and these names', Certificate],
    201: ['a certificate issued by this call', Certificate],
  },
  write: async ({ ops }, { t, certificate }, body) => {
    const result = await ops.put({ tenant: t, name: certificate, csr: body.csr, names: body.names ?? [] });
    // A CSR the CA cannot use is the caller's to fix (400), not a run's refusal.
    if (result.kind === 'invalid') throw badRequest(result.reason);
    if (result.kind === 'failed') throw stepFailed(result.step, {});
    return [result.kind === 'issued' ? 201 : 200, result.certificate] as const;
  },
});
