import { executeChild, proxyLocalActivities, ParentClosePolicy } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { workflowIds, type ReconcileResult, type SweepResult } from './shared.js';
import { tenantReconcile } from './tenant-reconcile.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/** How many tenants a sweep reconciles at once: enough to finish quickly, few enough to spare the backends. */
export const SWEEP_CONCURRENCY = 8;

/**
 * Started by the reconcile Schedule: reconciles every ready tenant as a child
 * `tenant-reconcile/<name>` and reports what each corrected.
 */
export async function reconcileSweep(): Promise<SweepResult> {
  const names = await registry.listReadyTenants();
  const result: SweepResult = { tenants: names.length, reconciled: [], failed: [], corrected: {} };
  let next = 0;
  async function lane(): Promise<void> {
    while (next < names.length) {
      const name = names[next++]!;
      let r: ReconcileResult;
      try {
        r = await executeChild(tenantReconcile, {
          workflowId: workflowIds.reconcile(name),
          args: [{ name }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
      } catch {
        // Already running (an operator's reconcile) or failed to start: reported, retried next sweep.
        result.failed.push(name);
        continue;
      }
      if (r.kind === 'reconciled') result.reconciled.push(name);
      else result.failed.push(name);
      if (r.kind !== 'refused') {
        const changed = r.report.flatMap((s) => s.objects.filter((o) => o.result !== 'in-place').map((o) => `${s.step}: ${o.object} ${o.result}`));
        if (changed.length) result.corrected[name] = changed;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, names.length) }, lane));
  return result;
}
