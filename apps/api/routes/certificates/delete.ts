import { notFound } from '../../errors.js';
import { CertificateParams } from '../../schemas/certificate.js';
import { deleteRoute } from '../shapes.js';
import { certificateAccess } from './access.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}/certificates/{certificate}',
  tag: 'certificates',
  summary: 'Forget a certificate; it is not revoked and stays valid until it expires',
  params: CertificateParams,
  done: 'forgotten',
  errors: [400, 401, 404, 501, 503],
  remove: async (c, deps, { t, certificate }) => {
    if (!(await (await certificateAccess(c, deps, t)).delete(t, certificate))) throw notFound('certificate not found');
  },
});
