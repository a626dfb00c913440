import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { isStepFailure } from '../failures.js';
import type { FormerActivities as Activities } from './activities.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from '../activity-options.js';
import { attemptRecordPut, type RecordPutRequest, type RecordPutResult, type RecordWorkflowInput } from '../../contracts/record.js';
import { underNameLease } from '../tenant-lease.js';
import { serveAttempts } from '../attempts.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `record-put/<tenant>/<name>`: each PUT is an attempt delivered by update. The registry decides
 * whether the name and address may be published; a new name must also be free in the zone (the
 * tenant may have published it with its own key). The registry row goes first, then the A and
 * the PTRs, so a failed DNS write is resumed by the same call.
 */
export async function recordPut(_input: RecordWorkflowInput): Promise<RecordPutResult | undefined> {
  return serveAttempts(attemptRecordPut, (req) => underNameLease(req.tenant, req.name, 'record put', () => attempt(req)), { kind: 'serial' });
}

const FAILED = Symbol('failed');

async function attempt(req: RecordPutRequest): Promise<RecordPutResult> {
  const check = await registry.checkRecordPut(req);
  if (check.kind === 'refused') return check;
  const at = { tenant: req.tenant, index: check.index, name: req.name };
  const dns = async <T>(work: () => Promise<T>): Promise<T | typeof FAILED> => {
    try {
      return await work();
    } catch (err) {
      if (isStepFailure(err)) return FAILED;
      throw err;
    }
  };
  if (!check.registered) {
    const free = await dns(() => steps.recordNameFree(at));
    if (free === FAILED) return { kind: 'failed', step: 'dns' };
    if (!free) {
      return {
        kind: 'refused',
        error: 'bad_request',
        message: `"${req.name}" is already published in the tenant zone by the tenant itself; remove it or choose another name`,
      };
    }
  }
  const saved = await registry.saveRecord({ ...req, recordKind: check.recordKind });
  if (saved.kind === 'refused') return saved;
  if ((await dns(() => steps.publishRecord({ ...at, address: req.address }))) === FAILED) return { kind: 'failed', step: 'dns' };
  const record = await registry.recordView(req);
  if (!record) return { kind: 'refused', error: 'not_found', message: 'record not found' };
  return { kind: 'done', record };
}
