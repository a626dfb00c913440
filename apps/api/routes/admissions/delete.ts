import { notFound } from '../../errors.js';
import { admissions } from './resource.js';

export const { route, register } = admissions.delete({
  summary: 'Withdraw an unused admission (its Wi-Fi key is revoked; the token just expires)',
  done: 'withdrawn',
  errors: [400, 401, 403, 404, 501, 502, 503],
  remove: async ({ ops, actor }, { t }) => {
    if (!(await ops.withdrawAdmission(t, actor))) throw notFound('no unused admission');
  },
});
