import { proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { isStepFailure } from '../failures.js';
import type { FormerActivities as Activities } from './activities.js';
import { STEP } from '../../core/search-attributes.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from '../activity-options.js';
import { WORKLOAD_VM_OPTIONS } from '../workload-options.js';
import { underNameLease } from '../tenant-lease.js';
import type { WorkloadDeleteResult } from '../../contracts/workload.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const vmSteps = proxyActivities<Activities>(WORKLOAD_VM_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `workload-delete/<tenant>/<name>`: stops and destroys the VM, removes its published names,
 * then frees its ordinal. A failed step leaves the workload `deleting`; the same delete again
 * runs every removal once more (each is idempotent), so it resumes.
 */
export function workloadDelete(input: { tenant: string; name: string; actor: string }): Promise<WorkloadDeleteResult> {
  return underNameLease(input.tenant, input.name, 'workload delete', () => remove(input));
}

async function remove(input: { tenant: string; name: string; actor: string }): Promise<WorkloadDeleteResult> {
  const start = await registry.beginWorkloadDelete(input);
  if (start.kind === 'refused') return start;
  for (const [name, run] of [
    ['hypervisor', () => vmSteps.removeWorkloadVm(start.spec)],
    ['dns', () => steps.unpublishWorkloadNames(start.spec)],
  ] as const) {
    upsertSearchAttributes([{ key: STEP, value: name }]);
    try {
      await run();
    } catch (err) {
      if (isStepFailure(err)) return { kind: 'failed', step: name };
      throw err;
    }
  }
  await registry.forgetWorkload(input);
  upsertSearchAttributes([{ key: STEP, value: 'done' }]);
  return { kind: 'deleted' };
}
