import { and, eq, gt, inArray, isNotNull, isNull, like, lt, ne, or, sql } from 'drizzle-orm';
import type { ObjectRun, RunFailure, RunState } from '../../core/object-life.js';
import type { Db } from '../registry.js';
import { objectRuns } from '../schema/index.js';

/**
 * The runs of objects (db/schema/object-runs.ts): written by the runs themselves, read by every
 * mechanism that decides from an object's life (core/object-life.ts). Times are the database's.
 */

export interface RunOf {
  object: string;
  tenant: string;
  workflowId: string;
  runId: string;
  operation: string;
}

const after = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;

/** An attempt of the run begins: the run claims its object until `claimMs` from now. */
export async function claimObject(db: Db, r: RunOf, claimMs: number): Promise<void> {
  const set = { runId: r.runId, operation: r.operation, state: 'in-flight' as const, failure: null, since: sql`now()`, claimExpiresAt: after(claimMs) };
  await db
    .insert(objectRuns)
    .values({ ...r, ...set })
    .onConflictDoUpdate({ target: [objectRuns.object, objectRuns.workflowId], set });
}

export interface Settling {
  state: Exclude<RunState, 'in-flight'>;
  failure?: RunFailure;
  /** A parked run's claim lasts this long (its parked timeout, and a margin). */
  claimMs?: number;
  /** A success to keep for the caller who may not have received it: its id and the answer, sealed. */
  answer?: { id: string; sealed: string; requestHash: string };
  /** A success that removed the object: the answers kept by its other runs go (their secrets are gone). */
  removed?: boolean;
}

/**
 * An attempt ended (or the run): its state, failure and answer, in one transaction with what the
 * answer makes stale: another run's kept answer of the same object (a newer success replaces its
 * secret, or removed the object); for a tenant removed, every run of its objects but this one.
 */
export async function settleObject(db: Db, r: RunOf, s: Settling): Promise<void> {
  await db.transaction(async (tx) => {
    const set = {
      runId: r.runId,
      operation: r.operation,
      state: s.state,
      failure: s.failure ?? null,
      since: sql`now()`,
      claimExpiresAt: s.claimMs !== undefined ? after(s.claimMs) : null,
      ...(s.answer
        ? { answerId: s.answer.id, answer: s.answer.sealed, requestHash: s.answer.requestHash, answeredAt: sql`now()`, handingAt: null, deliveredAt: null }
        : {}),
    };
    await tx
      .insert(objectRuns)
      .values({ ...r, ...set })
      .onConflictDoUpdate({ target: [objectRuns.object, objectRuns.workflowId], set });
    if (!s.answer) return;
    await tx
      .update(objectRuns)
      .set({ answer: null, answerId: null })
      .where(and(eq(objectRuns.object, r.object), ne(objectRuns.workflowId, r.workflowId), isNotNull(objectRuns.answer)));
    if (s.removed && r.object === `tenants/${r.tenant}`) {
      await tx.delete(objectRuns).where(and(eq(objectRuns.tenant, r.tenant), ne(objectRuns.workflowId, r.workflowId)));
    } else if (s.removed) {
      const escaped = r.object.replace(/[\\%_]/g, (ch) => `\\${ch}`);
      await tx.delete(objectRuns).where(and(like(objectRuns.object, `${escaped}/%`)));
    }
  });
}

const asRun = (row: typeof objectRuns.$inferSelect): ObjectRun & { object: string } => ({
  object: row.object,
  workflowId: row.workflowId,
  runId: row.runId,
  operation: row.operation,
  state: row.state,
  failure: row.failure,
  since: row.since,
  claimExpiresAt: row.claimExpiresAt,
});

const RUN_COLUMNS = {
  object: objectRuns.object,
  workflowId: objectRuns.workflowId,
  runId: objectRuns.runId,
  operation: objectRuns.operation,
  state: objectRuns.state,
  failure: objectRuns.failure,
  since: objectRuns.since,
  claimExpiresAt: objectRuns.claimExpiresAt,
} as const;

/** The runs of a tenant's objects (the tenant's own included), by object. */
export async function runsOfTenant(db: Db, tenant: string): Promise<Map<string, ObjectRun[]>> {
  const rows = await db.select(RUN_COLUMNS).from(objectRuns).where(eq(objectRuns.tenant, tenant));
  return byObject(rows.map((r) => asRun(r as typeof objectRuns.$inferSelect)));
}

/** The runs of the objects named. */
export async function runsOfObjects(db: Db, objects: readonly string[]): Promise<Map<string, ObjectRun[]>> {
  if (objects.length === 0) return new Map();
  const rows = await db
    .select(RUN_COLUMNS)
    .from(objectRuns)
    .where(inArray(objectRuns.object, [...objects]));
  return byObject(rows.map((r) => asRun(r as typeof objectRuns.$inferSelect)));
}

/** The registry's record of these runs (by workflow id), for a list of runs to say more than visibility holds. */
export async function runsByWorkflowId(db: Db, workflowIds: readonly string[]): Promise<(ObjectRun & { object: string })[]> {
  if (workflowIds.length === 0) return [];
  const rows = await db
    .select(RUN_COLUMNS)
    .from(objectRuns)
    .where(inArray(objectRuns.workflowId, [...workflowIds]));
  return rows.map((r) => asRun(r as typeof objectRuns.$inferSelect));
}

/** The runs in these states, with their object and tenant (what the event relay tells of). */
export async function runsInStates(db: Db, states: readonly RunState[]): Promise<(ObjectRun & { object: string; tenant: string })[]> {
  const rows = await db
    .select({ ...RUN_COLUMNS, tenant: objectRuns.tenant })
    .from(objectRuns)
    .where(inArray(objectRuns.state, [...states]));
  return rows.map((r) => ({ ...asRun(r as typeof objectRuns.$inferSelect), tenant: r.tenant }));
}

function byObject(runs: (ObjectRun & { object: string })[]): Map<string, ObjectRun[]> {
  const out = new Map<string, ObjectRun[]>();
  for (const { object, ...run } of runs) out.set(object, [...(out.get(object) ?? []), run]);
  return out;
}

/** The database's clock, which claims expire by. */
export async function registryNow(db: Db): Promise<Date> {
  const [row] = await db.execute<{ now: Date | string }>(sql`select now() as now`);
  return new Date(row!.now);
}

/** How long a handing (an instance writing the answer out) holds off a repeat's collection. */
export const ANSWER_HANDING_BOUND_MS = 10_000;

export type Collected = { sealed: string; answerId: string } | 'being-handed' | undefined;

/**
 * The answer a run kept for this very call (`requestHash`, the same run id) that no caller was
 * handed (`delivered_at` null), younger than the window: the repeat of a call that lost it. Taken
 * in one statement that marks it being handed, so two repeats at once cannot both have it.
 * `being-handed`: another instance is writing it out right now (a repeat sent the moment the
 * answer arrived): the caller waits for that write (`answerDelivered`) or its bound.
 */
export async function collectAnswer(db: Db, workflowId: string, requestHash: string, windowMs: number): Promise<Collected> {
  const unhanded = and(
    eq(objectRuns.workflowId, workflowId),
    eq(objectRuns.requestHash, requestHash),
    isNotNull(objectRuns.answer),
    isNull(objectRuns.deliveredAt),
    gt(objectRuns.answeredAt, sql`now() - make_interval(secs => ${windowMs / 1000})`),
  );
  const [taken] = await db
    .update(objectRuns)
    .set({ handingAt: sql`now()` })
    .where(and(unhanded, or(isNull(objectRuns.handingAt), lt(objectRuns.handingAt, sql`now() - make_interval(secs => ${ANSWER_HANDING_BOUND_MS / 1000})`))))
    .returning({ sealed: objectRuns.answer, answerId: objectRuns.answerId });
  if (taken?.sealed && taken.answerId) return { sealed: taken.sealed, answerId: taken.answerId };
  const [handed] = await db.select({ workflowId: objectRuns.workflowId }).from(objectRuns).where(unhanded);
  return handed ? 'being-handed' : undefined;
}

/** An instance is about to write the answer out: repeats wait for it (see `handingAt`). */
export async function answerHanding(db: Db, workflowId: string, answerId: string): Promise<void> {
  await db
    .update(objectRuns)
    .set({ handingAt: sql`now()` })
    .where(and(eq(objectRuns.workflowId, workflowId), eq(objectRuns.answerId, answerId), isNull(objectRuns.deliveredAt)));
}

/** A caller was handed the answer: no repeat collects it again. */
export async function answerDelivered(db: Db, workflowId: string, answerId: string): Promise<void> {
  await db
    .update(objectRuns)
    .set({ deliveredAt: sql`now()` })
    .where(and(eq(objectRuns.workflowId, workflowId), eq(objectRuns.answerId, answerId), isNull(objectRuns.deliveredAt)));
}

/**
 * What outlives the window: kept answers (their secrets, sealed) are forgotten, and the runs of
 * objects their own run removed (a delete's, a revoke's, a release's row, once its 204 can no
 * longer be asked for) are deleted. Other rows stay: each is the newest run of its workflow id,
 * what an object's read shows as its condition. The number of rows deleted.
 */
export async function purgeObjectRuns(db: Db, windowMs: number): Promise<number> {
  const old = sql`now() - make_interval(secs => ${windowMs / 1000})`;
  await db
    .update(objectRuns)
    .set({ answer: null, answerId: null, requestHash: null })
    .where(and(isNotNull(objectRuns.answer), sql`${objectRuns.answeredAt} < ${old}`));
  const rows = await db
    .delete(objectRuns)
    .where(
      and(sql`${objectRuns.operation} ~ '-(delete|revoke|release)$'`, inArray(objectRuns.state, ['done', 'superseded']), sql`${objectRuns.since} < ${old}`),
    )
    .returning({ object: objectRuns.object });
  return rows.length;
}
