import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { StepInput } from '../activities/tenant/steps.js';
import { ensureActivity, removeActivity, type RemovalStep, type StepName } from '../core/steps.js';
import { STEP_OPTIONS, STEP_OPTIONS_OF } from './activity-options.js';
import { isStepFailure } from './failures.js';
import { atStep, stepFailed } from './run-attributes.js';
import type { StepReport } from './contracts/tenant.js';

const acts = proxyActivities<Activities>(STEP_OPTIONS);

export type StepsRun = { ok: true; report: StepReport[] } | { ok: false; step: StepName; report: StepReport[] };

/**
 * Runs a tenant's steps in order, each its own activity (`<step>.ensure`) with a summary naming
 * step and tenant, and says which failed. `Step` names the step running, then the one that failed;
 * `FailedSteps` keeps every step that failed in the run.
 */
export async function ensureSteps(tenant: StepInput, steps: StepName[]): Promise<StepsRun> {
  const report: StepReport[] = [];
  for (const step of steps) {
    atStep(step);
    try {
      const objects = await acts[ensureActivity(step)].executeWithOptions({ ...(STEP_OPTIONS_OF[step] ?? STEP_OPTIONS), summary: `${step}: ensure for tenant ${tenant.name}` }, [tenant]);
      report.push({ step, ok: true, objects });
    } catch (err) {
      if (!isStepFailure(err)) throw err;
      stepFailed(step);
      report.push({ step, ok: false, objects: [] });
      return { ok: false, step, report };
    }
  }
  return { ok: true, report };
}

/** A delete's removals in order, each its own activity (`<step>.remove`); the failed step, if any. */
export async function removeSteps(tenant: StepInput, steps: RemovalStep[]): Promise<RemovalStep | undefined> {
  for (const step of steps) {
    atStep(step);
    try {
      await acts[removeActivity(step)].executeWithOptions({ ...STEP_OPTIONS, summary: `${step}: remove for tenant ${tenant.name}` }, [tenant]);
    } catch (err) {
      if (!isStepFailure(err)) throw err;
      stepFailed(step);
      return step;
    }
  }
  return undefined;
}

/**
 * A fabric read of the network step (the indexes it carries, or whether it carries a zone): its
 * own activity, so a fabric that does not answer is the network step failing, in history too.
 */
async function observeFabric<R>(read: () => Promise<R>): Promise<{ ok: true; value: R } | { ok: false }> {
  atStep('network');
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    stepFailed('network');
    return { ok: false };
  }
}

export const fabric = {
  indexes: (tenant: string) =>
    observeFabric(() => acts['network.observe-indexes'].executeWithOptions({ ...STEP_OPTIONS, summary: `network: the indexes the fabric carries (for tenant ${tenant})` }, [])),
  hasZone: (tenant: string) =>
    observeFabric(() => acts['network.observe-zone'].executeWithOptions({ ...STEP_OPTIONS, summary: `network: does the fabric carry the zone of tenant ${tenant}` }, [{ name: tenant }])),
};
