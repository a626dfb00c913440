import { createRoute, z } from '@hono/zod-openapi';
import { badRequest, settle } from '../../errors.js';
import { objectsOfReport } from '../../operations/saved-plans.js';
import { actorOf } from '../../auth/caller.js';
import { TenantParam } from '../../schemas/common.js';
import { ReconciledTenant, TenantCreateFailure } from '../../schemas/tenant.js';
import { bearer, handle, responses } from '../kit.js';

export const route = createRoute({
  method: 'post',
  path: '/v1/tenants/{t}/reconcile',
  tags: ['tenants'],
  ...bearer,
  summary: 'Re-ensure every backend of a tenant; or plan it (`plan=true`, saved) and apply the plan by id (`apply`)',
  request: {
    params: TenantParam,
    query: z.object({
      prune: z.enum(['true', 'false']).optional().openapi({
        description:
          'with `plan=true`: a plan that also removes what the backends hold of the tenant that the registry does not (listed `unknown`), when applied; alone, refused: prune only through a saved plan',
      }),
      plan: z.enum(['true', 'false']).optional().openapi({
        description: 'observe every backend and answer what a reconcile would change, changing nothing, and save it as a plan to apply by its `plan_id`',
      }),
      apply: z
        .string()
        .regex(/^plan-[A-Za-z0-9_-]{16}$/, 'must be a plan_id a plan answered')
        .optional()
        .openapi({
          description:
            'carry out a saved plan exactly: 409 naming what moved when any object it covered changed since, or when it was applied already or expired; prunes only what it listed',
        }),
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
  const { prune, plan, apply } = c.req.valid('query');
  const actor = actorOf(c.var.caller);
  if (apply !== undefined) {
    if (plan !== undefined || prune !== undefined) throw badRequest('apply carries out a saved plan as it was made: no plan or prune beside it');
    const applied = settle(await deps.operations!.applyPlan(t, apply, actor), (failed) => ({ tenant: failed.tenant }));
    return c.json({ ...applied.tenant, applied_plan: apply, objects: objectsOfReport(applied.report) }, 200);
  }
  if (plan === 'true') {
    const planned = settle(await deps.operations!.plan(t, { prune: prune === 'true', actor }), (failed) => ({ tenant: failed.tenant }));
    const saved = planned.saved!;
    return c.json(
      { ...planned.tenant, plan: true, plan_id: saved.id, plan_expires_at: saved.expires_at, prune: saved.prune, objects: objectsOfReport(planned.report) },
      200,
    );
  }
  if (prune === 'true')
    throw badRequest(`prune only through a saved plan that lists what it removes: POST ${c.req.path}?plan=true&prune=true, then ?apply=<its plan_id>`);
  const result = settle(await deps.operations!.reconcile(t), (failed) => ({ tenant: failed.tenant }));
  return c.json({ ...result.tenant, objects: objectsOfReport(result.report) }, 200);
});
