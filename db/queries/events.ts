import { randomBytes } from 'node:crypto';
import { and, asc, desc, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { events, sweepResults, type EventRow } from '../schema/index.js';

export interface NewEvent {
  key: string;
  type: string;
  data: Record<string, unknown>;
}

/** Emits each event once: one found again under its key is not emitted twice. The number new. */
export async function emitEvents(db: Db, found: readonly NewEvent[]): Promise<number> {
  if (found.length === 0) return 0;
  const rows = found.map((e) => {
    const id = `evt_${randomBytes(12).toString('base64url')}`;
    // The body as Standard Webhooks has it: type, timestamp, data; the id travels in `webhook-id`.
    return { id, key: e.key, type: e.type, body: { type: e.type, timestamp: new Date().toISOString(), data: e.data } };
  });
  const added = await db.insert(events).values(rows).onConflictDoNothing({ target: events.key }).returning({ seq: events.seq });
  return added.length;
}

/** Up to `limit` events due for delivery, each leased for `leaseMs` so another worker skips it meanwhile. */
export async function leaseDueEvents(db: Db, limit: number, leaseMs: number): Promise<EventRow[]> {
  const due = db
    .select({ seq: events.seq })
    .from(events)
    .where(and(isNull(events.deliveredAt), isNull(events.givenUpAt), lte(events.nextAttemptAt, sql`now()`)))
    .orderBy(asc(events.seq))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(events)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(inArray(events.seq, due))
    .returning();
}

export async function eventDelivered(db: Db, seq: number): Promise<void> {
  await db
    .update(events)
    .set({ deliveredAt: sql`now()`, attempts: sql`${events.attempts} + 1`, lastError: null })
    .where(sql`${events.seq} = ${seq}`);
}

/** An attempt failed: the next one after `retryInMs`, or none (`undefined`: given up). */
export async function eventAttemptFailed(db: Db, seq: number, error: string, retryInMs: number | undefined): Promise<void> {
  await db
    .update(events)
    .set({
      attempts: sql`${events.attempts} + 1`,
      lastError: error.slice(0, 500),
      ...(retryInMs === undefined ? { givenUpAt: sql`now()` } : { nextAttemptAt: sql`now() + make_interval(secs => ${retryInMs / 1000})` }),
    })
    .where(sql`${events.seq} = ${seq}`);
}

/** The feed: events after `after` (a `seq`), oldest first. */
export async function listEvents(db: Db, after: number, limit: number): Promise<EventRow[]> {
  return db.select().from(events).where(gt(events.seq, after)).orderBy(asc(events.seq)).limit(limit);
}

export type SweepRow = typeof sweepResults.$inferSelect;

/** Keeps a closed sweep's result once; true when it was new. */
export async function recordSweep(db: Db, row: SweepRow): Promise<boolean> {
  const added = await db.insert(sweepResults).values(row).onConflictDoNothing().returning({ runId: sweepResults.runId });
  return added.length === 1;
}

/** Which of these sweep runs are kept already. */
export async function keptSweeps(db: Db, runIds: readonly string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const rows = await db
    .select({ runId: sweepResults.runId })
    .from(sweepResults)
    .where(inArray(sweepResults.runId, [...runIds]));
  return new Set(rows.map((r) => r.runId));
}

export async function latestSweeps(db: Db, limit: number): Promise<SweepRow[]> {
  return db.select().from(sweepResults).orderBy(desc(sweepResults.closedAt)).limit(limit);
}

/** The newest close recorded: the relay looks only for sweeps that closed after it. */
export async function lastSweepClose(db: Db): Promise<Date | undefined> {
  const [row] = await db.select({ closedAt: sweepResults.closedAt }).from(sweepResults).orderBy(desc(sweepResults.closedAt)).limit(1);
  return row?.closedAt;
}
