import type { EnsureActivityType, ObjectStepActivity, PlanActivityType, RemoveActivityType } from '../core/step-table.js';
import { brokerAccountActivities } from './broker/accounts.js';
import { deviceActivities } from './devices/activities.js';
import { recordActivities } from './records/activities.js';
import type { ActivityDeps } from './deps.js';
import { attemptActivities } from './tenant/attempts.js';
import { leaseActivities } from './tenant/leases.js';
import { objectRunActivities } from './object-runs.js';
import { registerActivity } from './tenant/register.js';
import { lifecycleActivities } from './tenant/remove.js';
import { stepActivities } from './tenant/step-activities.js';
import { sweepActivities } from './tenant/sweep.js';
import { wifiKeyActivities } from './wifi/keys.js';
import { workloadActivities } from './workloads/activities.js';
import { waitingOutTheRegistry } from './registry-away.js';
import { isolationActivities } from './isolation/activities.js';

/** Builds every activity from injected dependencies (adapters, registry, site). */
export function createActivities(deps: ActivityDeps) {
  return waitingOutTheRegistry({
    ...leaseActivities(deps),
    ...objectRunActivities(deps),
    ...registerActivity(deps),
    ...stepActivities(deps),
    ...attemptActivities(deps),
    ...lifecycleActivities(deps),
    ...sweepActivities(deps),
    ...workloadActivities(deps),
    ...recordActivities(deps),
    ...brokerAccountActivities(deps),
    ...deviceActivities(deps),
    ...wifiKeyActivities(deps),
    ...isolationActivities(deps),
  });
}

export type Activities = ReturnType<typeof createActivities>;

/** Every `<area>.<verb>` activity is a listed step (core/step-table.ts), and every listed step an activity. */
type StepActivityKeys = Extract<keyof Activities, `${string}.${string}`>;
type Unlisted = Exclude<
  StepActivityKeys,
  ObjectStepActivity | EnsureActivityType | PlanActivityType | RemoveActivityType | 'network.observe-indexes' | 'network.observe-zone'
>;
type Missing = Exclude<ObjectStepActivity, StepActivityKeys>;
export const STEP_LISTS_AGREE: [Unlisted, Missing] extends [never, never] ? true : { unlisted: Unlisted; missing: Missing } = true;
