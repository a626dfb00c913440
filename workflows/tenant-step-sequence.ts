import type { StepInput } from '../activities/step-input.js';
import { ensureActivity, removeActivity, type RemovalStep, type StepName } from '../core/step-table.js';
import { STEP_OPTIONS_OF } from './activity-options.js';
import { runStep } from './run-step.js';
import type { StepReport } from '../contracts/tenant.js';

export type StepsRun = { ok: true; report: StepReport[] } | { ok: false; step: StepName; report: StepReport[] };

const ofTenant = (tenant: string) => `tenant ${tenant}`;

/** Runs a tenant's steps in order, each its own activity (`<step>.ensure`), and says which failed. */
export async function ensureSteps(tenant: StepInput, steps: StepName[]): Promise<StepsRun> {
  const report: StepReport[] = [];
  for (const step of steps) {
    const run = await runStep(ensureActivity(step), [tenant], {
      object: ofTenant(tenant.name),
      ...(STEP_OPTIONS_OF[step] ? { options: STEP_OPTIONS_OF[step] } : {}),
    });
    if (!run.ok) {
      report.push({ step, ok: false, objects: [] });
      return { ok: false, step, report };
    }
    report.push({ step, ok: true, objects: run.value });
  }
  return { ok: true, report };
}

/** A delete's removals in order, each its own activity (`<step>.remove`); the failed step, if any. */
export async function removeSteps(tenant: StepInput, steps: RemovalStep[]): Promise<RemovalStep | undefined> {
  for (const step of steps) {
    const run = await runStep(removeActivity(step), [tenant], { object: ofTenant(tenant.name) });
    if (!run.ok) return step;
  }
  return undefined;
}

/**
 * The fabric reads of the network step (the indexes it carries, or whether it carries a zone):
 * activities of their own, so a fabric that does not answer is the network step failing, in
 * history too.
 */
export const fabric = {
  indexes: (tenant: string) => runStep('network.observe-indexes', [], { object: `tenant ${tenant} (the indexes the fabric carries)` }),
  hasZone: (tenant: string) => runStep('network.observe-zone', [{ name: tenant }], { object: `tenant ${tenant} (whether the fabric carries its zone)` }),
};
