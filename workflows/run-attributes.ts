import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { FAILED_STEPS, OUTCOME, STEP } from '../core/search-attributes.js';

/**
 * What a run says of itself in its search attributes (core/search-attributes.ts), so the UI's
 * and the CLI's list filters find it: the step running or parked after, every step that failed
 * in the run (kept after a resume) and how the run answered.
 */
export function atStep(step: string): void {
  upsertSearchAttributes([{ key: STEP, value: step }]);
}

export function stepFailed(step: string): void {
  const failed = workflowInfo().typedSearchAttributes.get(FAILED_STEPS) ?? [];
  upsertSearchAttributes([
    { key: STEP, value: step },
    ...(failed.includes(step) ? [] : [{ key: FAILED_STEPS, value: [...failed, step] }]),
    { key: OUTCOME, value: 'failed' },
  ]);
}

/** `refused` for a 409/404 answer, `failed` for a 502, else the success's name (`created`, `deleted`, ...). */
export function answered(outcome: string): void {
  upsertSearchAttributes([{ key: OUTCOME, value: outcome }, ...(outcome === 'refused' || outcome === 'failed' ? [] : [{ key: STEP, value: 'done' }])]);
}
