import type { Site } from './site.js';
import type { RemovalStep, StepName, TenantStepName } from '../core/step-table.js';
import type { ObjectOutcome } from '../core/backend-outcome.js';
import type { ActivityDeps } from './deps.js';
import type { TenantIdentity } from '../core/identity.js';
import type { TenantSecrets } from '../core/tenant-view.js';

/** What a tenant step is given: the tenant's derived identifiers and its secrets, read from the registry. */
export interface TenantStepContext {
  deps: ActivityDeps;
  tenant: TenantIdentity;
  secrets: TenantSecrets;
}

/** What a step's applicability may depend on besides the site. */
export interface TenantFacts {
  holdsDeviceAddresses: boolean;
}

/**
 * One backend step of a tenant, beside the adapter of its product (`activities/<area>/step.ts`),
 * bound to its name in activities/tenant-steps.ts; its places are its name's in the step list
 * (core/step-table.ts). `ensure` adopts and corrects what exists and reports per object what it
 * found; `remove` is idempotent. Each runs as its own Temporal activity (`<name>.ensure`,
 * `<name>.plan`, `<name>.remove`).
 */
export interface TenantStep<N extends TenantStepName = TenantStepName> {
  name: N;
  /** Whether this site runs the step for this tenant (its backend configured, something to do). */
  appliesTo(site: Site, facts: TenantFacts): boolean;
  ensure?(ctx: TenantStepContext): Promise<ObjectOutcome[]>;
  /**
   * What `ensure` would report, from reads alone: nothing written to any backend or to the
   * registry (a reconcile's plan). Every step with an ensure has one.
   */
  plan?(ctx: TenantStepContext): Promise<ObjectOutcome[]>;
  remove?(ctx: TenantStepContext): Promise<void>;
}

/** What the step list asks of the module of step N: an ensure and a plan when a create runs it, a remove when a delete does. */
export type StepModule<N extends TenantStepName> = TenantStep<N> &
  (N extends StepName ? Required<Pick<TenantStep, 'ensure' | 'plan'>> : unknown) &
  (N extends RemovalStep ? Required<Pick<TenantStep, 'remove'>> : unknown);
