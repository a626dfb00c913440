import { proxyLocalActivities } from '@temporalio/workflow';
import type { ReconcileStart } from '../activities/tenant/remove.js';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import type { ReconcileResult, StepReport } from '../contracts/tenant.js';
import { areaOf, runStep } from './run-step.js';
import { deprecated } from './patches.js';
import { tenantRun } from './tenant-lease.js';
import { ensureSteps } from './tenant-step-sequence.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

export interface ReconcileInput {
  name: string;
  /** Remove what the backends hold of the tenant's that the registry does not (the operator's `?prune=true`; never the sweep). */
  prune?: boolean;
  /** With `prune`: remove only these objects (a saved plan's removals, core/saved-plan.ts), by the names it showed. */
  pruneOnly?: string[];
}

/**
 * `tenant-reconcile/<name>`: re-ensures every backend of a tenant, one activity per step, then the
 * objects it owns, one activity per area (its workloads' VMs, its Wi-Fi keys, its broker
 * accounts; names and device addresses are the `dns` and `device-address` steps'), and reports,
 * per backend object, whether it was in place, created, corrected (with the fields that differed),
 * needs a restore only the tenant can give, or is unknown to the registry. The answer carries the
 * log tokens and the dashboard password (sealed) and no other secret.
 */
export function tenantReconcile(input: ReconcileInput): Promise<ReconcileResult> {
  return tenantRun(
    input.name,
    'reconcile',
    () => registry.beginReconcile(input),
    (start) => reconcile(input, start),
  );
}

async function reconcile(input: ReconcileInput, start: Extract<ReconcileStart, { kind: 'proceed' }>): Promise<ReconcileResult> {
  const tenant = { name: input.name, index: start.index };
  const run = await ensureSteps(tenant, start.steps);
  const report: StepReport[] = run.report;
  let failed: string | undefined = run.ok ? undefined : run.step;
  if (!failed) {
    deprecated('reconcile-objects');
    for (const area of start.areas ?? []) {
      const mode = { prune: input.prune === true, ...(input.pruneOnly ? { pruneOnly: input.pruneOnly } : {}) };
      const objects = await runStep(area, [{ ...tenant, ...mode }], { object: `the objects of tenant ${input.name}` });
      report.push({ step: areaOf(area), ok: objects.ok, objects: objects.ok ? objects.value : [] });
      if (!objects.ok) {
        failed = objects.step;
        break;
      }
    }
  }
  if (failed) {
    const { tenant: view, secrets } = await registry.failAttempt({ name: input.name, step: failed, answer: { kind: 'reconcile' } });
    return { kind: 'failed', step: failed, tenant: view, report, secrets };
  }
  const { tenant: view, secrets } = await registry.finishReconcile(input);
  return { kind: 'reconciled', tenant: view, report, secrets };
}
