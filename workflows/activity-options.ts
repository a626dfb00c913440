import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import type { StepName } from '../core/step-table.js';

/**
 * Every backend step is its own activity under this policy: three quick attempts for transient
 * faults (a worker that dies mid-step costs one of them too), then the step is reported failed
 * (the caller gets a 502 and repeats). A backend refusing on purpose (BackendRefused) is not
 * retried. Every attempt is bounded, so a slow backend never holds a create past a bound; the
 * heartbeat notices a dead worker in seconds.
 */
export const STEP_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30s',
  heartbeatTimeout: '5s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '2s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: ['BackendRefused', 'TenantGone'],
  },
};

/**
 * Steps that wait as part of their work get a longer bound per attempt: the network step waits its
 * turn at the fabric (one tenant's SDN write and apply at a time, activities/network/step.ts) and
 * for the node to run the VNet. Heartbeats still notice a dead worker in seconds.
 */
export const STEP_OPTIONS_OF: Partial<Record<StepName, ActivityOptions>> = {
  network: { ...STEP_OPTIONS, startToCloseTimeout: '5m' },
};

/**
 * Registry-only activities run as local activities: they are short, and skipping the task-queue
 * round trip of a regular activity is most of Temporal's overhead on a create. The registry away
 * is waited out, up to a lease's lifetime; any other fault gets five attempts
 * (activities/registry-away.ts), as all faults did when five attempts (about 3 s) covered an outage
 * too: an attempt whose tenant was committed ready then failed, and its secrets were never shown.
 */
export const REGISTRY_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: '15s',
  scheduleToCloseTimeout: '15m',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '2s' },
};

/**
 * Releasing a tenant lease is retried until it lands, up to the lease's own lifetime (15 min,
 * db/queries/tenant-leases.ts): a run that gave up on it after REGISTRY_OPTIONS' five attempts,
 * while the database was away for 20 s, left its lease held, and the next run on that tenant or
 * object waited its full LEASE_WAIT and answered 409 (test/reliability/database-cut.test.ts with a
 * longer cut).
 */
export const LEASE_RELEASE_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: '15s',
  scheduleToCloseTimeout: '15m',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '5s' },
};

/**
 * What a run writes of its object's life (claimRun, settleRun: activities/object-runs.ts) is
 * retried until it lands, for as long as a lease's release is: a settle that gave up after five
 * attempts while the registry was away failed an attempt whose backends had all answered, and its
 * repeat found the tenant ready and answered 409 with the secrets never shown (the database-cut test).
 */
export const LIFE_OPTIONS: LocalActivityOptions = LEASE_RELEASE_OPTIONS;
