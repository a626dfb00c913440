import type { Site } from '../core/site.js';
import { CREATE_STEPS, REMOVAL_STEPS, type RemovalStep, type StepName, type TenantStepName } from '../core/step-table.js';
import { brokerStep } from './broker/step.js';
import { dashboardsStep } from './dashboards/step.js';
import { deviceAddressStep } from './devices/address-step.js';
import { dnsStep } from './dns/step.js';
import { logStoreStep } from './log-store/step.js';
import { networkStep } from './network/step.js';
import { resolverStep } from './resolver/step.js';
import { stateStep } from './state/step.js';
import type { TenantFacts, TenantStep } from './tenant-step-module.js';
import { wifiStep } from './wifi/step.js';

/** Each step of core/step-table.ts bound to its module (the typecheck fails when one is missing). */
export const STEP_MODULES: { [N in TenantStepName]: TenantStep<N> } = {
  dns: dnsStep,
  resolver: resolverStep,
  state: stateStep,
  network: networkStep,
  'device-address': deviceAddressStep,
  'log-store': logStoreStep,
  dashboards: dashboardsStep,
  broker: brokerStep,
  wifi: wifiStep,
};

/** The steps a create or reconcile runs for this tenant at this site, in the spec's order. */
export function createStepsFor(site: Site, facts: TenantFacts): StepName[] {
  return CREATE_STEPS.filter((s) => STEP_MODULES[s].appliesTo(site, facts));
}

/** The steps a delete runs for this tenant at this site, in the spec's order. */
export function removalStepsFor(site: Site, facts: TenantFacts): RemovalStep[] {
  return REMOVAL_STEPS.filter((s) => STEP_MODULES[s].appliesTo(site, facts));
}
