import { createRoute, z } from '@hono/zod-openapi';
import { badRequest, settle } from '../../errors.js';
import type { StepReport } from '../../../../contracts/tenant.js';
import { TenantParam } from '../../schemas/common.js';
import { ReconciledTenant, TenantCreateFailure } from '../../schemas/tenant.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'post',
  path: '/v1/tenants/{t}/reconcile',
  tags: ['tenants'],
  ...bearer,
  summary: 'Re-ensure every backend of a tenant, or plan it (`plan=true`)',
  request: {
    params: TenantParam,
    query: z.object({
      prune: z
        .enum(['true', 'false'])
        .optional()
        .openapi({ description: 'also remove what the backends hold of the tenant that the registry does not (reported `unknown` otherwise)' }),
      plan: z
        .enum(['true', 'false'])
        .optional()
        .openapi({ description: 'observe every backend and answer what a reconcile would change, changing nothing (not with `prune=true`)' }),
    }),
  },
  responses: responses(
    { 200: ['reconciled; carries the log tokens and the dashboard password only, and what the reconcile found of each backend object', ReconciledTenant] },
    [400, 401, 403, 404, 409, 501, 503],
    ['a backend step failed', TenantCreateFailure],
  ),
});

// Operator only: app.ts authorizes it (OPERATOR_ONLY) before anything validates the request.
export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const { prune, plan } = c.req.valid('query');
  if (plan === 'true') {
    if (prune === 'true') throw badRequest('plan and prune exclude each other: a plan changes nothing');
    const planned = settle(await deps.operations!.plan(t), (failed) => ({ tenant: failed.tenant }));
    return c.json({ ...planned.tenant, plan: true, objects: objectsOf(planned.report) }, 200);
  }
  const result = settle(await deps.operations!.reconcile(t, { prune: prune === 'true' }), (failed) => ({ tenant: failed.tenant }));
  return c.json({ ...result.tenant, objects: objectsOf(result.report) }, 200);
});

const objectsOf = (report: StepReport[]) => report.flatMap((s) => s.objects.map((o) => ({ area: s.step, ...o })));
