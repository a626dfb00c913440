import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { auditAdmissionWithdraw } from '../../../../db/queries/audit.js';
import { requireOperator } from '../../auth/authorize.js';
import { actorOf } from '../../auth/caller.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { notFound } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/admissions/{t}',
  tags: ['admissions'],
  summary: 'Withdraw an unused admission (its Wi-Fi key is revoked; the token just expires)',
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    204: { description: 'withdrawn' },
    ...errorResponses(400, 401, 403, 404, 501, 502, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    requireOperator(c);
    const { t } = c.req.valid('param');
    if (!(await deps.operations!.withdrawAdmission(t))) throw notFound('no unused admission');
    await auditAdmissionWithdraw(deps.registry.db, { actor: actorOf(c.var.caller), name: t });
    return c.body(null, 204);
  });
}
