import { ApplicationFailure } from '@temporalio/activity';
import {
  ensureActivity,
  planActivity,
  removeActivity,
  CREATE_STEPS,
  REMOVAL_STEPS,
  type EnsureActivityType,
  type PlanActivityType,
  type RemoveActivityType,
  type RemovalStep,
  type StepName,
} from '../../core/step-table.js';
import { getTenantRow, openSecrets, recordStep } from '../../db/queries/tenants.js';
import type { ObjectOutcome } from '../../core/backend-outcome.js';
import type { StepInput } from '../step-input.js';
import { asBackendStep } from '../step-failure.js';
import { TENANT_STEP_MODULES } from '../tenant-steps.js';
import type { TenantStepContext } from '../tenant-step-module.js';
import type { ActivityDeps } from '../deps.js';
import { deriveIdentity } from '../../core/identity.js';

type EnsureActivities = { [K in EnsureActivityType | PlanActivityType]: (input: StepInput) => Promise<ObjectOutcome[]> };
type RemoveActivities = { [K in RemoveActivityType]: (input: StepInput) => Promise<void> };

/**
 * One Temporal activity per tenant step and direction (`dns.ensure`, `dns.remove`, ...), so a
 * run's history shows each step's start, end, attempts and failure. Each reads the tenant's
 * secrets from the registry by name (they never travel through Temporal), runs its module and,
 * for an ensure, records the step's success in the registry.
 */
export function stepActivities(deps: ActivityDeps): EnsureActivities & RemoveActivities & ReturnType<typeof fabricActivities> {
  async function context(input: StepInput, required: boolean): Promise<TenantStepContext> {
    const row = await getTenantRow(deps.db, input.name);
    // Gone mid-run (a concurrent delete finished): nothing to ensure, and retrying will not help.
    if (!row && required) throw ApplicationFailure.nonRetryable('tenant vanished from the registry', 'TenantGone');
    return { deps, tenant: deriveIdentity(deps.site, input.name, input.index), secrets: row ? openSecrets(deps.keys, row) : {} };
  }

  function ensure(step: StepName) {
    const module = TENANT_STEP_MODULES[step];
    return async (input: StepInput): Promise<ObjectOutcome[]> => {
      const ctx = await context(input, true);
      return asBackendStep(
        deps.log,
        step,
        { tenant: input.name },
        async () => {
          const outcomes = await module.ensure(ctx);
          await recordStep(deps.db, input.name, step, true);
          const changed = outcomes.filter((o) => o.result !== 'in-place');
          deps.log.info({ tenant: input.name, step, changed }, changed.length ? 'step corrected backend objects' : 'step in place');
          return outcomes;
        },
        Object.values(ctx.secrets),
      );
    };
  }

  /** A step's plan: its module's reads, nothing recorded (a plan leaves the registry as it was). */
  function plan(step: StepName) {
    const module = TENANT_STEP_MODULES[step];
    return async (input: StepInput): Promise<ObjectOutcome[]> => {
      const ctx = await context(input, true);
      return asBackendStep(deps.log, step, { tenant: input.name }, () => module.plan(ctx), Object.values(ctx.secrets));
    };
  }

  function remove(step: RemovalStep) {
    const module = TENANT_STEP_MODULES[step];
    return async (input: StepInput): Promise<void> => {
      const ctx = await context(input, false);
      await asBackendStep(deps.log, step, { tenant: input.name }, () => module.remove(ctx), Object.values(ctx.secrets));
    };
  }

  return {
    ...(Object.fromEntries(
      CREATE_STEPS.flatMap((s) => [
        [ensureActivity(s), ensure(s)],
        [planActivity(s), plan(s)],
      ]),
    ) as EnsureActivities),
    ...(Object.fromEntries(REMOVAL_STEPS.map((s) => [removeActivity(s), remove(s)])) as RemoveActivities),
    ...fabricActivities(deps),
  };
}

/**
 * The fabric reads that come before a tenant's steps: the indexes it carries (before a new
 * tenant's index is chosen) and whether it still carries a tenant's zone (before a delete).
 * Backend calls, so activities of the network step: a failure is that step's.
 */
function fabricActivities(deps: ActivityDeps) {
  return {
    async 'network.observe-indexes'(): Promise<[number, string][]> {
      return asBackendStep(deps.log, 'network', {}, async () => [...(await deps.ports.network.usedIndexes())]);
    },
    async 'network.observe-zone'(input: { name: string }): Promise<boolean> {
      return asBackendStep(deps.log, 'network', { tenant: input.name }, () => deps.ports.network.hasZone(input.name));
    },
  };
}
