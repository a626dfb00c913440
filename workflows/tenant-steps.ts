import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { StepInput } from '../activities/tenant/steps.js';
import type { Outcome, StepName, TenantView } from '../activities/tenant/view.js';
import { STEP } from '../temporal/search-attributes.js';
import { REGISTRY_OPTIONS, STEPS_OPTIONS } from './activity-options.js';
import { isStepFailure } from './failures.js';
import type { StepReport } from './shared.js';

const stepsActivity = proxyActivities<Activities>(STEPS_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/** Create and reconcile run their steps in one activity from this change on (docs/decisions.md). */
export const STEPS_IN_ONE_ACTIVITY = 'tenant-steps-in-one-activity';

export type StepsRun = { ok: true; report: StepReport[]; tenant?: TenantView } | { ok: false; step: StepName; report: StepReport[] };

/**
 * Runs a tenant's steps in order (activity runSteps) and says which failed. With `finish` (a
 * create) the same activity then makes the tenant ready and answers it (runStepsAndFinish). The
 * Step search attribute names the failed step after a failure, so engineers find failed runs per
 * step in the Temporal UI; while the steps run, the step running is in the pending activity's
 * heartbeat details (a search attribute set before the activity could only name the first).
 */
export async function runTenantSteps(input: StepInput, steps: StepName[], finish?: { outcome: Outcome }): Promise<StepsRun> {
  if (steps.length === 0 && !finish) return { ok: true, report: [] };
  try {
    if (finish) return { ok: true, report: [], tenant: await stepsActivity.runStepsAndFinish({ ...input, steps, outcome: finish.outcome }) };
    return { ok: true, report: await stepsActivity.runSteps({ ...input, steps }) };
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    const [named, before] = failureDetails(err);
    // A failure that does not name its step is a timeout (workers died on every attempt) or the
    // closing registry write failing. When every step had passed, no step failed: a create then
    // finishes without the activity (tenant absent), a reconcile reports its first step.
    let step = steps.find((s) => s === named) ?? (await registry.firstUnpassedStep({ name: input.name, steps }));
    if (!step && finish) return { ok: true, report: [] };
    step ??= steps[0]!;
    upsertSearchAttributes([{ key: STEP, value: step }]);
    const passed = Array.isArray(before) ? (before as StepReport[]) : [];
    return { ok: false, step, report: [...passed, { step, ok: false, objects: [] }] };
  }
}

function failureDetails(err: unknown): unknown[] {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure ? (cause.details ?? []) : [];
}
