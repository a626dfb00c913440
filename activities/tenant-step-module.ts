import type { Site } from './site.js';
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
 * One backend step of a tenant, beside the adapter of its product (`activities/<area>/step.ts`),
 * listed in its area's `steps` (`activities/<area>/area.ts`). `ensure` adopts and corrects what
 * exists and reports per object what it found; `remove` is idempotent. A step with a `create` place
 * has an ensure, one with a `removal` place a remove. Each runs as its own Temporal activity
 * (`<name>.ensure`, `<name>.remove`). `npm run openapi:write` copies the names and places into
 * `core/tenant-steps.generated.ts`, where the workflows and the API read them.
 */
export interface TenantStep<N extends TenantStepName = TenantStepName> {
  name: N;
  /** The step's place in a create (1 runs first), or null when no create runs it. */
  create: number | null;
  /**
   * The step's place in a delete (1 runs first; spec: Delete removes ...), or null when a delete
   * leaves it alone: the fabric network is the operator's to remove, and delete is refused while
   * the fabric still carries the zone.
   */
  removal: number | null;
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
