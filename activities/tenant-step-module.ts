import type { Site } from '../core/site.js';
import type { TenantStepName } from '../core/step-table.js';
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
 * One backend step of a tenant, beside the adapter of its product (`activities/<area>/step.ts`).
 * `ensure` adopts and corrects what exists and reports per object what it found; `remove` is
 * idempotent. A step of `core/step-table.ts` marked `create` has an ensure, one with a removal place a
 * remove. Each runs as its own Temporal activity (`<name>.ensure`, `<name>.remove`).
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
