import { notFound } from '../../errors.js';
import { certificates } from './resource.js';

export const { route, register } = certificates.delete({
  summary: 'Forget a certificate; it is not revoked and stays valid until it expires',
  done: 'forgotten',
  errors: [400, 401, 404, 501, 503],
  remove: async ({ ops }, { t, certificate }) => {
    if (!(await ops.delete(t, certificate))) throw notFound('certificate not found');
  },
});
