import type { Client } from '@temporalio/client';

/** Milliseconds of a history event's time. */
const at = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/**
 * Where a fill's creates spent their time, from their histories: for each activity type, the mean
 * time from scheduled to closed (ms; waiting for a worker slot included), and the mean of the whole
 * run. A step that waits for others (the fabric's apply round) shows its wait here.
 */
export async function stepTimes(
  client: Client,
  workflowIds: string[],
): Promise<{ run: number; steps: Record<string, number>; workflowTasks: { ms: number; count: number; toStart: number } }> {
  const total = new Map<string, { ms: number; n: number }>();
  let runs = 0;
  let wall = 0;
  // The workflow tasks of a run, scheduled → completed (local activities inside them), and their
  // wait for a worker (scheduled → started): what the run spends outside its activities.
  let taskMs = 0;
  let taskWait = 0;
  let tasks = 0;
  for (const id of workflowIds) {
    const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
    if (events.length === 0) continue;
    runs++;
    wall += at(events.at(-1)!.eventTime) - at(events[0]!.eventTime);
    const scheduled = new Map<number, { type: string; t: number }>();
    const taskAt = new Map<number, number>();
    for (const e of events) {
      if (e.workflowTaskScheduledEventAttributes) taskAt.set(Number(e.eventId), at(e.eventTime));
      const started = e.workflowTaskStartedEventAttributes;
      if (started) taskWait += at(e.eventTime) - (taskAt.get(Number(started.scheduledEventId)) ?? at(e.eventTime));
      const done = e.workflowTaskCompletedEventAttributes;
      if (done) {
        taskMs += at(e.eventTime) - (taskAt.get(Number(done.scheduledEventId)) ?? at(e.eventTime));
        tasks++;
      }
      const s = e.activityTaskScheduledEventAttributes;
      if (s) scheduled.set(Number(e.eventId), { type: s.activityType?.name ?? '?', t: at(e.eventTime) });
      const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
      const from = closed ? scheduled.get(Number(closed.scheduledEventId)) : undefined;
      if (!from) continue;
      const sum = total.get(from.type) ?? { ms: 0, n: 0 };
      sum.ms += at(e.eventTime) - from.t;
      sum.n++;
      total.set(from.type, sum);
    }
  }
  const steps = Object.fromEntries([...total].sort((a, b) => b[1].ms - a[1].ms).map(([k, v]) => [k, Math.round(v.ms / v.n)]));
  const per = (x: number) => (runs ? Math.round(x / runs) : 0);
  return { run: per(wall), steps, workflowTasks: { ms: per(taskMs), count: runs ? Math.round((tasks / runs) * 10) / 10 : 0, toStart: per(taskWait) } };
}
