import { CertificateParams } from '../../schemas/certificate.js';
import { resource } from '../shapes.js';
import { tenantAccess } from '../tenant-access.js';

/** Every certificate route: the caller's own tenant (or the operator), a CA, a registered tenant. */
export const certificates = resource({
  tag: 'certificates',
  item: '/v1/tenants/{t}/certificates/{certificate}',
  params: CertificateParams,
  access: (c, deps, t) => tenantAccess(c, t, deps.certificates, 'no tenant service CA at this site'),
});
