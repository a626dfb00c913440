import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { executeChild, proxyLocalActivities, ParentClosePolicy } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { OPERATION, operationOf, TENANT_NAME } from '../core/search-attributes.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { type PlanResult, type ReconcileResult, type StepReport, type SweepResult } from '../contracts/tenant.js';
import { tenantPlan } from './tenant-plan.js';
import { tenantReconcile } from './tenant-reconcile.js';
import { runIds } from '../contracts/ids.js';
import { begunWith, deprecated } from './patches.js';
import { answered } from './run-attributes.js';
import { runStep } from './run-step.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/** How many tenants a sweep reconciles at once when its schedule does not say (SITE_SWEEP_CONCURRENCY). */
export const SWEEP_CONCURRENCY = 8;

/**
 * Started by the reconcile Schedule: reconciles every ready tenant as a child
 * `tenant-reconcile/<name>` (found by `TenantName` and `Operation` like an operator's) and reports
 * what each corrected. A tenant that is not ready, or turns out busy or gone when its reconcile
 * starts, is skipped and listed with the reason.
 */
export async function reconcileSweep(input: { concurrency?: number; mode?: 'plan' | 'correct' } = {}): Promise<SweepResult> {
  const { ready: tenants, skipped } = await registry.sweepTenants();
  const plan = input.mode === 'plan';
  const result: SweepResult = {
    tenants: tenants.length + skipped.length,
    reconciled: [],
    failed: [],
    skipped,
    corrected: {},
    found: {},
    ...(plan ? { mode: 'plan' as const, planned: [] } : {}),
  };
  let next = 0;
  async function lane(): Promise<void> {
    while (next < tenants.length) {
      const { name, index } = tenants[next++]!;
      let r: ReconcileResult | PlanResult;
      try {
        r = plan
          ? await child(tenantPlan, runIds.tenantPlan(name), name, index, `plan the reconcile of tenant ${name} (index ${index}), from the reconcile sweep`)
          : await child(tenantReconcile, runIds.tenantReconcile(name), name, index, `reconcile tenant ${name} (index ${index}), from the reconcile sweep`);
      } catch (err) {
        // An operator's reconcile of the tenant is running: it does this sweep's work. Anything
        // else that kept the child from starting is a failure. Either way the next sweep retries.
        if (err instanceof WorkflowExecutionAlreadyStartedError) result.skipped.push({ name, reason: 'a reconcile of it was already running' });
        else result.failed.push(name);
        continue;
      }
      if (r.kind === 'reconciled') result.reconciled.push(name);
      else if (r.kind === 'planned') result.planned!.push(name);
      else if (r.kind === 'refused') result.skipped.push({ name, reason: r.message });
      else result.failed.push(name);
      if (r.kind !== 'refused') {
        const changed = r.report.flatMap((s) => s.objects.filter((o) => o.result !== 'in-place').map((o) => `${s.step}: ${o.object} ${o.result}`));
        if (changed.length) result.corrected[name] = changed;
        result.found[name] = countByArea(r.report);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(input.concurrency ?? SWEEP_CONCURRENCY, tenants.length) }, lane));
  // An admission's key outlives its token on the developer network; expiry is where it ends (a
  // bound one's client leaves the allow-list with it). A plan changes nothing, so it skips this.
  let expiryFailed = false;
  // Sweeps begun with `admission-expiry` also revoke the Wi-Fi keys of admissions that expired unused.
  if (!plan && begunWith('admission-expiry')) {
    const expired = await runStep('wifi.expire-admission-keys', [], { object: 'the Wi-Fi keys of admissions that expired unused' });
    result.expiredAdmissions = expired.ok ? { revoked: expired.value.revoked, failed: false } : { revoked: [], failed: true };
    expiryFailed = !expired.ok;
  }
  // Its Outcome too, like every run.
  deprecated('run-model');
  answered(result.failed.length || expiryFailed ? 'failed' : 'swept');
  return result;
}

/** A tenant's reconcile or plan as a child run, found by `TenantName` and `Operation` like an operator's. */
function child<W extends typeof tenantReconcile | typeof tenantPlan>(
  workflow: W,
  workflowId: string,
  name: string,
  index: number,
  staticSummary: string,
): Promise<ReconcileResult | PlanResult> {
  return executeChild(workflow as typeof tenantPlan, {
    workflowId,
    args: [{ name }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    typedSearchAttributes: [
      { key: TENANT_NAME, value: name },
      { key: OPERATION, value: operationOf(workflow.name) },
    ],
    staticSummary,
    memo: { index },
  });
}

/** A tenant's reconcile summed up: per step or area, how many objects came to each result. */
function countByArea(report: StepReport[]): Record<string, Record<string, number>> {
  const found: Record<string, Record<string, number>> = {};
  for (const s of report) {
    const area = (found[s.step] ??= {});
    for (const o of s.objects) area[o.result] = (area[o.result] ?? 0) + 1;
  }
  return found;
}
