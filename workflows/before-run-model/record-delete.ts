import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { isStepFailure } from '../failures.js';
import type { FormerActivities as Activities } from './activities.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from '../activity-options.js';
import type { RecordDeleteRequest, RecordDeleteResult } from '../../contracts/record.js';
import { underNameLease } from '../tenant-lease.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `record-delete/<tenant>/<name>`: removes the name and re-aligns the PTRs, then forgets the
 * record. A failed DNS write keeps the record; the same delete again resumes.
 */
export function recordDelete(input: RecordDeleteRequest): Promise<RecordDeleteResult> {
  return underNameLease(input.tenant, input.name, 'record delete', () => remove(input));
}

async function remove(input: RecordDeleteRequest): Promise<RecordDeleteResult> {
  const start = await registry.beginRecordDelete(input);
  if (start.kind === 'refused') return start;
  try {
    await steps.unpublishRecord({ tenant: input.tenant, index: start.index, name: input.name });
  } catch (err) {
    if (isStepFailure(err)) return { kind: 'failed', step: 'dns' };
    throw err;
  }
  await registry.forgetRecord(input);
  return { kind: 'deleted' };
}
