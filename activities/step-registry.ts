import type { Site } from './site.js';
import { CREATE_STEPS, REMOVAL_STEPS, type RemovalStep, type StepName, type TenantStepName } from '../core/step-table.js';
import type { TenantFacts, TenantStep } from './tenant-step-module.js';
import { tenantStepModules } from './tenant-step-rows.js';

const modules = new Map<string, TenantStep>(tenantStepModules().map((s) => [s.name, s]));

/** The module of a step of core/step-table.ts, from the areas' `steps` (activities/backend-areas.ts). */
export function stepModule<N extends TenantStepName>(name: N): TenantStep<N> {
  const module = modules.get(name);
  // The generated table and the areas disagree only when `npm run openapi:write` was not run.
  if (!module) throw new Error(`step ${name} is in core/tenant-steps.generated.ts but no area lists it: run npm run openapi:write`);
  return module as TenantStep<N>;
}

/** The steps a create or reconcile runs for this tenant at this site, in the spec's order. */
export function createStepsFor(site: Site, facts: TenantFacts): StepName[] {
  return CREATE_STEPS.filter((s) => stepModule(s).appliesTo(site, facts));
}

/** The steps a delete runs for this tenant at this site, in the spec's order. */
export function removalStepsFor(site: Site, facts: TenantFacts): RemovalStep[] {
  return REMOVAL_STEPS.filter((s) => stepModule(s).appliesTo(site, facts));
}
