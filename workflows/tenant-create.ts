import { patched, proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { serveParkedAttempts } from './parked-attempts.js';
import { isStepFailure } from './failures.js';
import type { Activities } from '../activities/index.js';
import { STEP } from '../temporal/search-attributes.js';
import { STEP_ACTIVITY } from './step-activities.js';
import type { StepName } from '../activities/tenant/view.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from './activity-options.js';
import { runTenantSteps, STEPS_IN_ONE_ACTIVITY } from './tenant-steps.js';
import { attemptCreate, type CreateRequest, type CreateResult, type CreateWorkflowInput } from './shared.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `tenant-create/<name>`: each create call is an attempt delivered by update. Attempts that arrive
 * while one runs join it, so concurrent identical creates converge on one identity. After a failed
 * step the run parks and the next attempt resumes; after success, or when parked too long, it ends
 * (a later create starts a fresh run, which re-ensures every step).
 */
export function tenantCreate(input: CreateWorkflowInput): Promise<CreateResult | undefined> {
  return serveParkedAttempts(attemptCreate, attempt, input.parkedTimeoutMs);
}

async function attempt(req: CreateRequest): Promise<CreateResult> {
  let reg;
  try {
    reg = await registry.registerTenant(req);
  } catch (err) {
    // Choosing a new tenant's index reads the fabric; when it can't, nothing is registered yet.
    if (isStepFailure(err)) return { kind: 'failed', step: 'network' };
    throw err;
  }
  if (reg.kind === 'refused') return reg;
  const input = { name: reg.name, index: reg.index, secrets: reg.secrets };
  if (patched(STEPS_IN_ONE_ACTIVITY)) {
    const run = await runTenantSteps(input, reg.steps, { outcome: reg.outcome });
    if (!run.ok) {
      const tenant = await registry.failAttempt({ name: reg.name, step: run.step, secrets: reg.secrets });
      return { kind: 'failed', step: run.step, tenant };
    }
    if (run.tenant) {
      upsertSearchAttributes([{ key: STEP, value: 'done' }]);
      return { kind: 'ready', outcome: reg.outcome, tenant: run.tenant };
    }
    // Every step passed but the activity did not get to finish (it died): finish here.
  } else {
    // Runs started before STEPS_IN_ONE_ACTIVITY replay as they ran: one activity per step.
    for (const step of reg.steps) {
      upsertSearchAttributes([{ key: STEP, value: step }]);
      try {
        await runStep(step, input);
      } catch (err) {
        if (!isStepFailure(err)) throw err;
        const tenant = await registry.failAttempt({ name: reg.name, step, secrets: reg.secrets });
        return { kind: 'failed', step, tenant };
      }
    }
  }
  upsertSearchAttributes([{ key: STEP, value: 'done' }]);
  const tenant = await registry.finishAttempt({ name: reg.name, secrets: reg.secrets, outcome: reg.outcome });
  return { kind: 'ready', outcome: reg.outcome, tenant };
}

/** One step as its own activity: runs started before STEPS_IN_ONE_ACTIVITY replay through it. */
export function runStep(step: StepName, input: Parameters<Activities['stepDns']>[0]) {
  return steps[STEP_ACTIVITY[step]](input);
}
