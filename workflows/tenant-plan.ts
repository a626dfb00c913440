import { proxyLocalActivities, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { planActivity, PLAN_OF_AREA } from '../core/step-table.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS_OF } from './activity-options.js';
import type { PlanResult, StepReport } from '../contracts/tenant.js';
import { answering, areaOf, runStep, type Answered } from './run-step.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

export interface PlanInput {
  name: string;
}

/**
 * `tenant-plan/<name>`: what a reconcile of the tenant would do, without doing it. The same steps
 * and areas as a reconcile, each its own activity (`dns.plan`, ..., `hypervisor.plan-workloads`),
 * each only reading its backend; the registry is read, never written, and no lease is taken (a
 * plan changes nothing another run could trip on). Its answer carries no secret. A tenant whose
 * create or delete holds it (in flight or parked; a reconcile of it is refused) is planned too,
 * every object reported `in-flight` with that run.
 */
export async function tenantPlan(input: PlanInput): Promise<Answered<PlanResult>> {
  return answering(async (): Promise<PlanResult> => {
    const start = await registry.beginReconcile({ ...input, plan: true });
    if (start.kind === 'refused') return start;
    upsertMemo({ index: start.index });
    const tenant = { name: input.name, index: start.index };
    const report: StepReport[] = [];
    const about = { object: `tenant ${input.name}` };
    let failed: string | undefined;
    for (const step of start.steps) {
      const run = await runStep(planActivity(step), [tenant], { ...about, ...(STEP_OPTIONS_OF[step] ? { options: STEP_OPTIONS_OF[step] } : {}) });
      report.push({ step, ok: run.ok, objects: run.ok ? run.value : [] });
      if (!run.ok) {
        failed = run.step;
        break;
      }
    }
    for (const area of failed ? [] : (start.areas ?? [])) {
      const plan = PLAN_OF_AREA[area];
      const run = await runStep(plan, [tenant], { object: `the objects of tenant ${input.name}` });
      report.push({ step: areaOf(plan), ok: run.ok, objects: run.ok ? run.value : [] });
      if (!run.ok) {
        failed = run.step;
        break;
      }
    }
    const view = await registry.viewForPlan(input);
    // Deleted while the plan read (a step may have failed on it): the answer a plan sent after the delete gets.
    if (!view) return { kind: 'refused', error: 'not_found', message: 'tenant not found' };
    // A tenant its create or delete holds: every object is that run's, whatever the plans found of it.
    const holder = start.holder;
    const found = holder ? report.map((s) => ({ ...s, objects: s.objects.map((o) => ({ object: o.object, ...holder })) })) : report;
    return failed ? { kind: 'failed', step: failed, tenant: view, report: found } : { kind: 'planned', tenant: view, report: found };
  });
}
