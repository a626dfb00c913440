import type { Client } from '@temporalio/client';

/** Milliseconds of a history event's time. */
const at = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/**
 * Where a fill's creates spent their time, from their histories: for each activity type, the mean
 * time from scheduled to closed (ms; waiting for a worker slot included), and the mean of the whole
 * run. A step that waits for others (the fabric's apply round) shows its wait here.
 */
export async function stepTimes(client: Client, workflowIds: string[]): Promise<{ run: number; steps: Record<string, number> }> {
  const total = new Map<string, { ms: number; n: number }>();
  let runs = 0;
  let wall = 0;
  for (const id of workflowIds) {
    const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
    if (events.length === 0) continue;
    runs++;
    wall += at(events.at(-1)!.eventTime) - at(events[0]!.eventTime);
    const scheduled = new Map<number, { type: string; t: number }>();
    for (const e of events) {
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
  return { run: runs ? Math.round(wall / runs) : 0, steps };
}
