import type { Parked } from '../contracts/attempt.js';
import { attemptRecordDelete, type RecordDeleteRequest, type RecordDeleteResult } from '../contracts/record.js';
import { itsName, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';

/**
 * `record-delete/<tenant>/<name>`: removes the name and re-aligns the PTRs, then forgets the
 * record. A failed DNS write keeps the record and parks the run; the same delete again resumes.
 */
export async function recordDelete(input: RecordDeleteRequest & Parked): Promise<RecordDeleteResult | undefined> {
  return objectRun({ update: attemptRecordDelete, call: 'record delete', hold: itsName, attempt: remove }, input);
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
