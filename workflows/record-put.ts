import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { serveRun } from './attempts.js';
import { DEFAULT_PARKED_MS } from '../contracts/attempt.js';
import { attemptRecordPut, type RecordPutRequest, type RecordPutResult, type RecordWorkflowInput } from '../contracts/record.js';
import { runStep } from './run-step.js';
import { underNameLease } from './tenant-lease.js';
import { deprecated } from './patches.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `record-put/<tenant>/<name>`: each PUT is an attempt delivered by update. The registry decides
 * whether the name and address may be published; a new name must also be free in the zone (the
 * tenant may have published it with its own key). The registry row goes first, then the A and
 * the PTRs, so a failed DNS write parks the run and the same call resumes it.
 */
export async function recordPut(input: RecordWorkflowInput): Promise<RecordPutResult | undefined> {
  deprecated('run-model');
  return serveRun(
    attemptRecordPut,
    (req) => underNameLease(req.tenant, req.name, 'record put', () => attempt(req)),
    {
      kind: 'serial',
      park: { parkedTimeoutMs: input.parkedTimeoutMs ?? DEFAULT_PARKED_MS, call: 'record put' },
    },
    (r) => (r.kind === 'done' ? 'published' : r.kind),
  );
}

async function attempt(req: RecordPutRequest): Promise<RecordPutResult> {
  const check = await registry.checkRecordPut(req);
  if (check.kind === 'refused') return check;
  const at = { tenant: req.tenant, index: check.index, name: req.name };
  const object = { object: `record ${req.name} of tenant ${req.tenant}` };
  if (!check.registered) {
    const free = await runStep('dns.check-name', [at], object);
    if (!free.ok) return { kind: 'failed', step: 'dns' };
    if (!free.value) {
      return {
        kind: 'refused',
        error: 'bad_request',
        message: `"${req.name}" is already published in the tenant zone by the tenant itself; remove it or choose another name`,
      };
    }
  }
  const saved = await registry.saveRecord({ ...req, recordKind: check.recordKind });
  if (saved.kind === 'refused') return saved;
  if (!(await runStep('dns.publish-record', [{ ...at, address: req.address }], object)).ok) return { kind: 'failed', step: 'dns' };
  const record = await registry.recordView(req);
  if (!record) return { kind: 'refused', error: 'not_found', message: 'record not found' };
  return { kind: 'done', record };
}
