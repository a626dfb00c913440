import { CertificateList } from '../../schemas/certificate.js';
import { certificates } from './resource.js';

export const { route, register } = certificates.list({
  summary: "The tenant's certificates: one per name, the current one",
  answer: ['certificates', CertificateList],
  list: async ({ ops }, t) => ({ certificates: await ops.list(t) }),
});
