import type { TenantActivityDeps } from './tenant/deps.js';
import { registerActivity } from './tenant/register.js';
import { lifecycleActivities } from './tenant/remove.js';
import { stepActivities } from './tenant/steps.js';
import { sweepActivities } from './tenant/sweep.js';

/** Builds every activity from injected dependencies (adapters, registry, site). */
export function createActivities(deps: TenantActivityDeps) {
  return {
    ...registerActivity(deps),
    ...stepActivities(deps),
    ...lifecycleActivities(deps),
    ...sweepActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
