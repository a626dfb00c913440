import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';

/**
 * A few quick attempts for transient faults, then the step is reported failed (the caller gets a
 * 502 and repeats). A backend refusing on purpose (BackendRefused) is not retried. Every attempt
 * is bounded, so a slow backend never holds a create past a bound.
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
 * A tenant's steps run in order in one activity (runSteps). Each step still gets three attempts
 * for backend faults (counted by the activity itself, STEP_FAULT_ATTEMPTS); the policy here allows
 * more, because an attempt also ends when a worker dies, which is no fault of the step. The bound
 * covers all the steps; the heartbeat notices a dead worker in seconds and the retry resumes at
 * the step it stopped in.
 */
export const STEPS_OPTIONS: ActivityOptions = {
  ...STEP_OPTIONS,
  startToCloseTimeout: '120s',
  retry: { ...STEP_OPTIONS.retry, maximumAttempts: 10 },
};

/**
 * Registry-only activities run as local activities: they are short, and skipping the task-queue
 * round trip of a regular activity is most of Temporal's overhead on a create. Retried a little
 * longer (the database may blip).
 */
export const REGISTRY_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '2s', maximumAttempts: 5 },
};
