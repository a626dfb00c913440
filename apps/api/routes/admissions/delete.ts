import { actorOf } from '../../auth/caller.js';
import { notFound } from '../../errors.js';
import { TenantParam } from '../../schemas/common.js';
import { deleteRoute } from '../shapes.js';

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const { route, register } = deleteRoute({
  path: '/v1/admissions/{t}',
  tag: 'admissions',
  summary: 'Withdraw an unused admission (its Wi-Fi key is revoked; the token just expires)',
  params: TenantParam,
  done: 'withdrawn',
  errors: [400, 401, 403, 404, 501, 502, 503],
  remove: async (c, deps, { t }) => {
    if (!(await deps.operations!.withdrawAdmission(t, actorOf(c.var.caller)))) throw notFound('no unused admission');
  },
});
