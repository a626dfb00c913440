import { patched, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { isStepFailure } from './failures.js';
import type { Activities } from '../activities/index.js';
import { STEP } from '../temporal/search-attributes.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import type { ReconcileResult, StepReport } from './shared.js';
import { runStep } from './tenant-create.js';
import { runTenantSteps, STEPS_IN_ONE_ACTIVITY } from './tenant-steps.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `tenant-reconcile/<name>`: re-ensures every backend of a tenant and reports, per backend object,
 * whether it was in place, created or corrected. The answer carries the log tokens and the
 * dashboard password and no other secret.
 */
export async function tenantReconcile(input: { name: string }): Promise<ReconcileResult> {
  const start = await registry.beginReconcile(input);
  if (start.kind === 'refused') return start;
  const report: StepReport[] = [];
  const shown = {
    logIngestToken: start.secrets.logIngestToken,
    logReadToken: start.secrets.logReadToken,
    dashboardPassword: start.secrets.dashboardPassword,
  };
  const stepInput = { name: input.name, index: start.index, secrets: start.secrets };
  if (patched(STEPS_IN_ONE_ACTIVITY)) {
    const run = await runTenantSteps(stepInput, start.steps);
    report.push(...run.report);
    if (!run.ok) {
      const tenant = await registry.failAttempt({ name: input.name, step: run.step, secrets: shown });
      return { kind: 'failed', step: run.step, tenant, report };
    }
  } else {
    // Runs started before STEPS_IN_ONE_ACTIVITY replay as they ran: one activity per step.
    for (const step of start.steps) {
      upsertSearchAttributes([{ key: STEP, value: step }]);
      try {
        const objects = await runStep(step, stepInput);
        report.push({ step, ok: true, objects });
      } catch (err) {
        if (!(isStepFailure(err))) throw err;
        report.push({ step, ok: false, objects: [] });
        const tenant = await registry.failAttempt({ name: input.name, step, secrets: shown });
        return { kind: 'failed', step, tenant, report };
      }
    }
  }
  await registry.finishReconcile(input);
  upsertSearchAttributes([{ key: STEP, value: 'done' }]);
  const tenant = await registry.tenantView({ name: input.name, secrets: shown, outcome: 'reconciled' });
  return { kind: 'reconciled', tenant, report };
}
