import { proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { isStepFailure } from '../failures.js';
import type { FormerActivities as Activities } from './activities.js';
import { newWorkloadDisk } from '../../core/workload-sizing.js';
import type { PublishStep } from '../../core/step-table.js';
import { STEP } from '../../core/search-attributes.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from '../activity-options.js';
import { underNameLease } from '../tenant-lease.js';
import { serveAttempts } from '../attempts.js';
import { WORKLOAD_VM_OPTIONS } from '../workload-options.js';
import { attemptWorkloadCreate, type WorkloadRequest, type WorkloadResult, type WorkloadWorkflowInput } from '../../contracts/workload.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const vmSteps = proxyActivities<Activities>(WORKLOAD_VM_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `workload-create/<tenant>/<name>`: each create call is an attempt delivered by update. A new
 * workload is checked first (its name free in the zone, its disk no smaller than the template's),
 * then registered, which fixes its identity; then the VM is ensured on the hypervisor and its
 * names published. A failed step answers the partial workload; the same call again resumes.
 */
export async function workloadCreate(_input: WorkloadWorkflowInput): Promise<WorkloadResult | undefined> {
  return serveAttempts(attemptWorkloadCreate, (req) => underNameLease(req.tenant, req.name, 'workload create', () => attempt(req)), { kind: 'serial' });
}

class StepFailed extends Error {
  constructor(readonly step: PublishStep) {
    super(step);
  }
}

async function step<T>(name: PublishStep, work: () => Promise<T>): Promise<T> {
  upsertSearchAttributes([{ key: STEP, value: name }]);
  try {
    return await work();
  } catch (err) {
    if (isStepFailure(err)) throw new StepFailed(name);
    throw err;
  }
}

async function attempt(req: WorkloadRequest): Promise<WorkloadResult> {
  const prep = await registry.prepareWorkload(req);
  if (prep.kind === 'refused') return prep;
  let diskGb = prep.diskGb;
  try {
    if (!prep.registered) {
      const free = await step('dns', () => steps.workloadNameFree({ tenant: req.tenant, index: prep.index, name: req.name }));
      if (!free) {
        return {
          kind: 'refused',
          error: 'bad_request',
          message: `"${req.name}" is already published in the tenant zone by the tenant itself; remove it or choose another name`,
        };
      }
      const templateGb = await step('hypervisor', () => steps.workloadTemplateDisk({ tenant: req.tenant, name: req.name }));
      const disk = newWorkloadDisk(req.diskGb, templateGb);
      if (!disk.ok) return { kind: 'refused', error: 'bad_request', message: disk.error };
      diskGb = disk.diskGb;
    }
  } catch (err) {
    if (err instanceof StepFailed) return { kind: 'failed', step: err.step };
    throw err;
  }

  const reg = await registry.registerWorkload({ ...req, index: prep.index, diskGb: diskGb! });
  if (reg.kind === 'refused') return reg;
  try {
    await step('hypervisor', () => vmSteps.ensureWorkloadVm(reg.spec));
    await step('dns', () => steps.publishWorkloadNames(reg.spec));
  } catch (err) {
    if (!(err instanceof StepFailed)) throw err;
    return { kind: 'failed', step: err.step, workload: await registry.workloadView(req) };
  }
  upsertSearchAttributes([{ key: STEP, value: 'done' }]);
  const workload = await registry.finishWorkload(req);
  if (!workload) return { kind: 'refused', error: 'not_found', message: 'workload not found' };
  return { kind: 'done', workload };
}
