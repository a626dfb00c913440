import { CertificateList } from '../../schemas/certificate.js';
import { listRoute } from '../shapes.js';
import { certificateAccess } from './access.js';

export const { route, register } = listRoute({
  path: '/v1/tenants/{t}/certificates',
  tag: 'certificates',
  summary: "The tenant's certificates: one per name, the current one",
  answer: ['certificates', CertificateList],
  list: async (c, deps, t) => ({ certificates: await (await certificateAccess(c, deps, t)).list(t) }),
});
