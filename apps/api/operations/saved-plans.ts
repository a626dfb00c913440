import { randomBytes } from 'node:crypto';
import type { PlanResult, ReconcileResult, StepReport } from '../../../contracts/tenant.js';
import { movedSince, planDigest, PLAN_LIFETIME_MS, removalsOf } from '../../../core/saved-plan.js';
import { getPlan, savePlan, takePlan } from '../../../db/queries/reconcile-plans.js';
import type { Db } from '../../../db/registry.js';
import { conflict, notFound } from '../errors.js';

/** A plan as its answer names it: what applies it, until when, and whether it removes. */
export interface SavedPlan {
  id: string;
  expires_at: string;
  prune: boolean;
}

/** Every backend object of a run's report, with the area that holds it: what a plan shows and keeps. */
export const objectsOfReport = (report: StepReport[]) => report.flatMap((s) => s.objects.map((o) => ({ area: s.step, ...o })));

/** A reconcile's answer for an applied plan, or the failed or refused plan that observed the world again. */
export type AppliedPlanResult = (ReconcileResult | Exclude<PlanResult, { kind: 'planned' }>) & { applied?: SavedPlan };

interface Runs {
  plan(name: string): Promise<PlanResult>;
  reconcile(name: string, input: { prune?: boolean; pruneOnly?: string[] }): Promise<ReconcileResult>;
}

/**
 * Saved plans (issue 47 item 1): a plan is kept with the digest of what it observed; applying it
 * observes again and refuses (409, naming what moved) unless nothing it covered changed, then
 * reconciles, removing only what the plan listed. The only way to prune.
 */
export function savedPlans(db: Db, runs: Runs) {
  return {
    async plan(name: string, opts: { prune: boolean; actor: string }): Promise<PlanResult & { saved?: SavedPlan }> {
      const result = await runs.plan(name);
      if (result.kind !== 'planned') return result;
      const objects = objectsOfReport(result.report);
      const id = `plan-${randomBytes(12).toString('base64url')}`;
      const row = await savePlan(db, {
        id,
        tenant: name,
        prune: opts.prune,
        digest: planDigest(objects),
        objects,
        askedBy: opts.actor,
        lifetimeMs: PLAN_LIFETIME_MS,
      });
      return { ...result, saved: { id, expires_at: row.expiresAt.toISOString(), prune: opts.prune } };
    },

    async apply(name: string, id: string, actor: string): Promise<AppliedPlanResult> {
      const plan = await getPlan(db, name, id);
      if (!plan) throw notFound('plan not found');
      if (plan.appliedAt) throw conflict(`plan ${id} was applied at ${plan.appliedAt.toISOString()}; make a new plan`);
      if (plan.expired) throw conflict(`plan ${id} expired at ${plan.expiresAt.toISOString()}; make a new plan`);
      const now = await runs.plan(name);
      if (now.kind !== 'planned') return now;
      const current = objectsOfReport(now.report);
      if (planDigest(current) !== plan.digest) {
        const moved = movedSince(plan.objects, current);
        throw conflict(`the backends changed since plan ${id}: ${moved.join('; ')}; make a new plan`);
      }
      if (!(await takePlan(db, name, id, actor))) throw conflict(`plan ${id} was applied by another call, or expired; make a new plan`);
      const result = await runs.reconcile(name, plan.prune ? { prune: true, pruneOnly: removalsOf(plan.objects) } : {});
      return { ...result, applied: { id, expires_at: plan.expiresAt.toISOString(), prune: plan.prune } };
    },
  };
}
