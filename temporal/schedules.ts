import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { OPERATION, operationOf } from '../core/search-attributes.js';
import { runIds } from '../contracts/ids.js';

/**
 * The scheduled reconcile sweep (design §4): a Temporal Schedule on the site's interval, skipping
 * a tick while the previous sweep still runs. Created or updated idempotently when a worker starts.
 */
export async function ensureSweepSchedule(
  client: Client,
  opts: { taskQueue: string; intervalMs: number; concurrency?: number; mode?: 'plan' | 'correct' },
): Promise<void> {
  const spec = { intervals: [{ every: opts.intervalMs }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: 'reconcileSweep',
    workflowId: runIds.reconcileSweep,
    taskQueue: opts.taskQueue,
    // A correcting sweep's arguments stay as they were: `mode` only when the site plans.
    args:
      opts.concurrency !== undefined || opts.mode === 'plan'
        ? [{ ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}), ...(opts.mode === 'plan' ? { mode: 'plan' } : {}) }]
        : [],
    typedSearchAttributes: [{ key: OPERATION, value: operationOf('reconcileSweep') }],
    staticSummary:
      opts.mode === 'plan'
        ? 'reconcile sweep (plan): every ready tenant observed, what a reconcile would change reported, nothing changed'
        : 'reconcile sweep: every ready tenant re-ensured, what drifted reported',
  };
  try {
    await client.schedule.create({
      scheduleId: runIds.reconcileSweepSchedule,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(runIds.reconcileSweepSchedule).update((prev) => ({
      ...prev,
      spec,
      action,
      policies: { ...prev.policies, overlap: ScheduleOverlapPolicy.SKIP },
    }));
  }
}
