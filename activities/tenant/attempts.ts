import { ApplicationFailure } from '@temporalio/activity';
import type { StepName } from '../../core/steps.js';
import { getTenantRecord, recordStep, setTenantStatus } from '../../db/queries/tenants.js';
import type { TenantActivityDeps } from './deps.js';
import { viewTenant, type Outcome, type TenantView } from './view.js';

/**
 * The registry writes that end an attempt of a create or reconcile. They answer the tenant as the
 * registry holds it, without secrets: the workflow hands the API the secrets sealed, and the API
 * puts them into its answer.
 */
export function attemptActivities(deps: TenantActivityDeps) {
  async function view(name: string, outcome?: Outcome): Promise<TenantView> {
    const rec = await getTenantRecord(deps.db, deps.keys, name);
    if (!rec) throw ApplicationFailure.nonRetryable('tenant vanished from the registry', 'TenantGone');
    return viewTenant(deps.site, rec, {}, outcome);
  }

  return {
    /** Records a failed step and answers the partial tenant. */
    async failAttempt(input: { name: string; step: StepName }): Promise<TenantView> {
      await recordStep(deps.db, input.name, input.step, false);
      return view(input.name);
    },

    /** Every step passed: the tenant is ready. */
    async finishAttempt(input: { name: string; outcome: Outcome }): Promise<TenantView> {
      await setTenantStatus(deps.db, input.name, 'ready');
      return view(input.name, input.outcome);
    },

    tenantView: (input: { name: string; outcome?: Outcome }) => view(input.name, input.outcome),
  };
}
