import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsAction,
  type ScheduleSpec,
} from '@temporalio/client';
import { OPERATION, operationOf } from '../core/search-attributes.js';
import type { CoreSite } from '../core/site.js';
import { runIds } from '../contracts/ids.js';
import { UndecodablePayload } from './codec.js';

/** The site's Schedules, the sweep and the isolation check, as its settings say: where a worker (or the lab) starts. */
export async function ensureSiteSchedules(client: Client, taskQueue: string, site: CoreSite): Promise<void> {
  await ensureSweepSchedule(client, { taskQueue, intervalMs: site.reconcileIntervalMs, concurrency: site.sweepConcurrency, mode: site.sweepMode });
  await ensureIsolationCheckSchedule(client, { taskQueue, intervalMs: site.isolationCheckIntervalMs });
}

/**
 * The scheduled reconcile sweep (design §4): a Temporal Schedule on the site's interval, skipping
 * a tick while the previous sweep still runs. Created or updated idempotently when a worker starts.
 */
export async function ensureSweepSchedule(
  client: Client,
  opts: { taskQueue: string; intervalMs: number; concurrency?: number; mode?: 'plan' | 'correct' },
): Promise<void> {
  await ensureSchedule(client, runIds.reconcileSweepSchedule, opts.intervalMs, {
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
  });
}

/**
 * The scheduled isolation check (issue 49): on the site's interval (SITE_ISOLATION_CHECK_INTERVAL,
 * hourly by default), paced like the sweep: a tick is skipped while the previous check still runs.
 * No interval (`off`): the Schedule a site had is deleted, so turning it off stops it.
 */
export async function ensureIsolationCheckSchedule(client: Client, opts: { taskQueue: string; intervalMs: number | undefined }): Promise<void> {
  if (opts.intervalMs === undefined) return deleteIfThere(client, runIds.isolationCheckSchedule);
  await ensureSchedule(client, runIds.isolationCheckSchedule, opts.intervalMs, {
    type: 'startWorkflow' as const,
    workflowType: 'isolationCheck',
    workflowId: runIds.isolationCheck,
    taskQueue: opts.taskQueue,
    args: [],
    typedSearchAttributes: [{ key: OPERATION, value: operationOf('isolationCheck') }],
    staticSummary: "isolation check: each canary's credentials against the other canary's objects, on every backend",
  });
}

async function ensureSchedule(client: Client, scheduleId: string, intervalMs: number, action: ScheduleOptionsAction): Promise<void> {
  const spec: ScheduleSpec = { intervals: [{ every: intervalMs }] };
  const create = () => client.schedule.create({ scheduleId, spec, action, policies: { overlap: ScheduleOverlapPolicy.SKIP } });
  // Workers starting together each do this: between one's "already there" and its update, another
  // may delete the Schedule (below) and make it again, so a Schedule gone under an update is made
  // again. Three rounds: each lost one means another worker has just made it.
  for (let round = 1; ; round++) {
    try {
      await create();
      return;
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
    try {
      await client.schedule.getHandle(scheduleId).update((prev) => ({
        ...prev,
        spec,
        action,
        policies: { ...prev.policies, overlap: ScheduleOverlapPolicy.SKIP },
      }));
      return;
    } catch (e) {
      if (e instanceof ScheduleNotFoundError && round < 3) continue;
      // Made under the payload key the site had before (its summary and arguments are sealed with
      // it): the worker could never start again. Nothing in a Schedule is the site's state, so it
      // is made again under the current key. One's delete may find it gone, one's create may find
      // another's made (under the same current key), and neither is a failure to start.
      if (!sealedUnderAnotherKey(e)) throw e;
      await deleteIfThere(client, scheduleId);
      await create().catch((c: unknown) => {
        if (!(c instanceof ScheduleAlreadyRunning)) throw c;
      });
      return;
    }
  }
}

async function deleteIfThere(client: Client, scheduleId: string): Promise<void> {
  await client.schedule
    .getHandle(scheduleId)
    .delete()
    .catch((err: unknown) => {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    });
}

function sealedUnderAnotherKey(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) if (e instanceof UndecodablePayload) return true;
  return false;
}
