import { newWorkloadDisk } from '../core/workload-sizing.js';
import { attemptWorkloadCreate, type WorkloadRequest, type WorkloadResult, type WorkloadWorkflowInput } from '../contracts/workload.js';
import { nameTaken } from './name-free.js';
import { itsName, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';
import { WORKLOAD_VM_OPTIONS } from './workload-options.js';

/**
 * `workload-create/<tenant>/<name>`: each create call is an attempt delivered by update; attempts
 * of one workload run one after another. A new workload is checked first (its name free in the
 * zone, its disk no smaller than the template's), then registered, which fixes its identity; then
 * the VM is ensured on the hypervisor and its names published. A failed step answers the partial
 * workload and parks the run; the same call again resumes it.
 */
export async function workloadCreate(input: WorkloadWorkflowInput): Promise<WorkloadResult | undefined> {
  return objectRun({ update: attemptWorkloadCreate, call: 'workload create', calls: 'serial', hold: itsName, done: 'created', attempt }, input);
}

async function attempt(req: WorkloadRequest): Promise<WorkloadResult> {
  const prep = await registry.prepareWorkload(req);
  if (prep.kind === 'refused') return prep;
  const object = { object: `workload ${req.name} of tenant ${req.tenant}` };
  let diskGb = prep.diskGb;
  if (!prep.registered) {
    const taken = await nameTaken({ tenant: req.tenant, index: prep.index, name: req.name }, object);
    if (taken) return taken;
    const template = await runStep('hypervisor.template-disk', [{ tenant: req.tenant, name: req.name }], object);
    if (!template.ok) return { kind: 'failed', step: 'hypervisor' };
    const disk = newWorkloadDisk(req.diskGb, template.value);
    if (!disk.ok) return { kind: 'refused', error: 'bad_request', message: disk.error };
    diskGb = disk.diskGb;
  }

  const reg = await registry.registerWorkload({ ...req, index: prep.index, diskGb: diskGb! });
  if (reg.kind === 'refused') return reg;
  const vm = await runStep('hypervisor.ensure-vm', [reg.spec], { ...object, options: WORKLOAD_VM_OPTIONS });
  const names = vm.ok ? await runStep('dns.publish-workload', [reg.spec], object) : vm;
  if (!names.ok) return { kind: 'failed', step: names.step as 'hypervisor' | 'dns', workload: await registry.workloadView(req) };
  const workload = await registry.finishWorkload(req);
  if (!workload) return { kind: 'refused', error: 'not_found', message: 'workload not found' };
  return { kind: 'done', workload };
}
