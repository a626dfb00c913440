import type { Parked } from '../contracts/attempt.js';
import { attemptWorkloadDelete, type WorkloadDeleteRequest, type WorkloadDeleteResult } from '../contracts/workload.js';
import { itsName, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';
import { WORKLOAD_VM_OPTIONS } from './workload-options.js';

/**
 * `workload-delete/<tenant>/<name>`: stops and destroys the VM, removes its published names,
 * then frees its ordinal. A failed step leaves the workload `deleting` and parks the run; the
 * same delete again runs every removal once more (each is idempotent), so it resumes.
 */
export async function workloadDelete(input: WorkloadDeleteRequest & Parked): Promise<WorkloadDeleteResult | undefined> {
  return objectRun({ update: attemptWorkloadDelete, call: 'workload delete', hold: itsName, attempt: remove }, input);
}

async function remove(input: WorkloadDeleteRequest): Promise<WorkloadDeleteResult> {
  const start = await registry.beginWorkloadDelete(input);
  if (start.kind === 'refused') return start;
  const object = { object: `workload ${input.name} of tenant ${input.tenant}` };
  const vm = await runStep('hypervisor.remove-vm', [start.spec], { ...object, options: WORKLOAD_VM_OPTIONS });
  const names = vm.ok ? await runStep('dns.unpublish-workload', [start.spec], object) : vm;
  if (!names.ok) return { kind: 'failed', step: names.step as 'hypervisor' | 'dns' };
  await registry.forgetWorkload(input);
  return { kind: 'deleted' };
}
