import { attemptRecordPut, type RecordPutRequest, type RecordPutResult, type RecordWorkflowInput } from '../contracts/record.js';
import { nameTaken } from './name-free.js';
import { itsName, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';

/**
 * `record-put/<tenant>/<name>`: each PUT is an attempt delivered by update; puts of one name run
 * one after another, so the last one wins. The registry decides whether the name and address may
 * be published; a new name must also be free in the zone. The registry row goes first, then the
 * A and the PTRs, so a failed DNS write parks the run and the same call resumes it.
 */
export async function recordPut(input: RecordWorkflowInput): Promise<RecordPutResult | undefined> {
  return objectRun({ update: attemptRecordPut, call: 'record put', calls: 'serial', hold: itsName, done: 'published', attempt }, input);
}

async function attempt(req: RecordPutRequest): Promise<RecordPutResult> {
  const check = await registry.checkRecordPut(req);
  if (check.kind === 'refused') return check;
  const at = { tenant: req.tenant, index: check.index, name: req.name };
  const object = { object: `record ${req.name} of tenant ${req.tenant}` };
  if (!check.registered) {
    const taken = await nameTaken(at, object);
    if (taken) return taken;
  }
  const saved = await registry.saveRecord({ ...req, recordKind: check.recordKind });
  if (saved.kind === 'refused') return saved;
  if (!(await runStep('dns.publish-record', [{ ...at, address: req.address }], object)).ok) return { kind: 'failed', step: 'dns' };
  const record = await registry.recordView(req);
  if (!record) return { kind: 'refused', error: 'not_found', message: 'record not found' };
  return { kind: 'done', record };
}
