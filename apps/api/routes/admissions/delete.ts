import { createRoute } from '@hono/zod-openapi';
import { auditAdmissionWithdraw } from '../../../../db/queries/audit.js';
import { requireOperator } from '../../auth/authorize.js';
import { actorOf } from '../../auth/caller.js';
import { notFound } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/admissions/{t}', tags: ['admissions'], ...bearer,
  summary: 'Withdraw an unused admission (its Wi-Fi key is revoked; the token just expires)',
  request: { params: TenantParam },
  responses: { 204: { description: 'withdrawn' }, ...errorResponses(400, 401, 403, 404, 501, 502, 503) },
});

export const register = handle(route, async (c, deps) => {
  requireOperator(c);
  const { t } = c.req.valid('param');
  if (!(await deps.operations!.withdrawAdmission(t))) throw notFound('no unused admission');
  await auditAdmissionWithdraw(deps.registry.db, { actor: actorOf(c.var.caller), name: t });
  return c.body(null, 204);
});
