import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { serveRun } from './attempts.js';
import { DEFAULT_PARKED_MS, type Parked } from '../contracts/attempt.js';
import { attemptRecordDelete, type RecordDeleteRequest, type RecordDeleteResult } from '../contracts/record.js';
import { runStep } from './run-step.js';
import { underNameLease } from './tenant-lease.js';
import { deprecated } from './patches.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `record-delete/<tenant>/<name>`: removes the name and re-aligns the PTRs, then forgets the
 * record. A failed DNS write keeps the record and parks the run; the same delete again resumes.
 */
export async function recordDelete(input: RecordDeleteRequest & Parked): Promise<RecordDeleteResult | undefined> {
  deprecated('run-model');
  return serveRun(attemptRecordDelete, (req) => underNameLease(req.tenant, req.name, 'record delete', () => remove(req)), {
    kind: 'parked',
    parkedTimeoutMs: input.parkedTimeoutMs ?? DEFAULT_PARKED_MS,
    call: 'record delete',
  });
}

async function remove(input: RecordDeleteRequest): Promise<RecordDeleteResult> {
  const start = await registry.beginRecordDelete(input);
  if (start.kind === 'refused') return start;
  const unpublished = await runStep('dns.unpublish-record', [{ tenant: input.tenant, index: start.index, name: input.name }], {
    object: `record ${input.name} of tenant ${input.tenant}`,
  });
  if (!unpublished.ok) return { kind: 'failed', step: 'dns' };
  await registry.forgetRecord(input);
  return { kind: 'deleted' };
}
