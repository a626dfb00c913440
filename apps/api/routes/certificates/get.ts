import { Certificate, CertificateParams } from '../../schemas/certificate.js';
import { getRoute } from '../shapes.js';
import { certificateAccess } from './access.js';

export const { route, register } = getRoute({
  path: '/v1/tenants/{t}/certificates/{certificate}',
  tag: 'certificates',
  summary: 'The current certificate of a name',
  params: CertificateParams,
  answer: ['the current certificate', Certificate],
  missing: 'certificate not found',
  read: async (c, deps, { t, certificate }) => (await certificateAccess(c, deps, t)).get(t, certificate),
});
