import type { Site } from './site.js';
import { CREATE_STEPS, REMOVAL_STEPS, type RemovalStep, type StepName, type TenantStepName } from '../core/step-table.js';
import type { StepModule, TenantFacts } from './tenant-step-module.js';
import { brokerStep } from './broker/step.js';
import { dashboardsStep } from './dashboards/step.js';
import { deviceAddressStep } from './devices/address-step.js';
import { dnsStep } from './dns/step.js';
import { logStoreStep } from './log-store/step.js';
import { networkStep } from './network/step.js';
import { resolverStep } from './resolver/step.js';
import { stateStep } from './state/step.js';
import { wifiStep } from './wifi/step.js';

/**
 * Each tenant step's module, by the name the step list gives it (core/step-table.ts). The
 * typecheck holds the two together: a name without its module, a module under another's name, a
 * create step without ensure and plan, or a removal step without remove, does not compile.
 */
export const TENANT_STEP_MODULES = {
  dns: dnsStep,
  resolver: resolverStep,
  state: stateStep,
  network: networkStep,
  'device-address': deviceAddressStep,
  'log-store': logStoreStep,
  dashboards: dashboardsStep,
  broker: brokerStep,
  wifi: wifiStep,
} satisfies { [N in TenantStepName]: StepModule<N> };

/** The steps a create or reconcile runs for this tenant at this site, in the spec's order. */
export function createStepsFor(site: Site, facts: TenantFacts): StepName[] {
  return CREATE_STEPS.filter((s) => TENANT_STEP_MODULES[s].appliesTo(site, facts));
}

/** The steps a delete runs for this tenant at this site, in the spec's order. */
export function removalStepsFor(site: Site, facts: TenantFacts): RemovalStep[] {
  return REMOVAL_STEPS.filter((s) => TENANT_STEP_MODULES[s].appliesTo(site, facts));
}
