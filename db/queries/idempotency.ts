import { and, eq, gt, isNull, like, lt, lte, not, or, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { idempotencyKeys } from '../schema/index.js';

/** A key's entry: `answer` is null while its first request runs. Times are the database's, so replicas agree. */
export interface IdempotencyEntry {
  requestHash: string;
  status: number | null;
  answer: string | null;
  /** Whether the instance running the first request has not been heard of for `staleMs`. */
  stale: boolean;
}

const id = (caller: string, key: string) => and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.key, key));
const ms = (n: number) => sql`now() + make_interval(secs => ${n / 1000})`;
const ago = (n: number) => sql`now() - make_interval(secs => ${n / 1000})`;

/** The live (unexpired) entry of a caller's key. */
export async function findIdempotencyEntry(db: Db, caller: string, key: string, staleMs: number): Promise<IdempotencyEntry | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      answer: idempotencyKeys.answer,
      stale: sql<boolean>`${idempotencyKeys.heartbeatAt} < ${ago(staleMs)}`,
    })
    .from(idempotencyKeys)
    .where(and(id(caller, key), gt(idempotencyKeys.expiresAt, sql`now()`)));
  return row;
}

/**
 * Claims a key for a first request; false when a live entry holds it (a concurrent request won).
 * An expired entry not yet purged is replaced: after the window the key is forgotten.
 */
export async function claimIdempotencyKey(db: Db, e: { caller: string; key: string; requestHash: string; object: string; windowMs: number }): Promise<boolean> {
  const fresh = {
    requestHash: e.requestHash,
    object: e.object,
    status: null,
    answer: null,
    createdAt: sql`now()`,
    heartbeatAt: sql`now()`,
    expiresAt: ms(e.windowMs),
  };
  const rows = await db
    .insert(idempotencyKeys)
    .values({ caller: e.caller, key: e.key, ...fresh })
    .onConflictDoUpdate({ target: [idempotencyKeys.caller, idempotencyKeys.key], set: fresh, setWhere: lte(idempotencyKeys.expiresAt, sql`now()`) })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Takes over a first request whose instance stopped beating (it died mid-request); true when this caller won it. */
export async function takeOverIdempotencyKey(db: Db, caller: string, key: string, requestHash: string, staleMs: number): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ heartbeatAt: sql`now()` })
    .where(and(id(caller, key), isNull(idempotencyKeys.answer), eq(idempotencyKeys.requestHash, requestHash), lt(idempotencyKeys.heartbeatAt, ago(staleMs))))
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** The running first request is alive. */
export async function beatIdempotencyKey(db: Db, caller: string, key: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ heartbeatAt: sql`now()` })
    .where(and(id(caller, key), isNull(idempotencyKeys.answer)));
}

/** Keeps the first answer (sealed by the caller of this function). */
export async function keepIdempotentAnswer(db: Db, caller: string, key: string, status: number, sealedAnswer: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status, answer: sealedAnswer })
    .where(and(id(caller, key), isNull(idempotencyKeys.answer)));
}

/** Forgets a key whose first request ended with no answer worth keeping (a 5xx: the repeat must run again). */
export async function releaseIdempotencyKey(db: Db, caller: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(id(caller, key), isNull(idempotencyKeys.answer)));
}

/** Deletes every expired entry; the number deleted. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, sql`now()`))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}

/**
 * Deletes the entries of an object (`below`: and of every object under it), answered or still
 * running, but the one of `except` (the request replacing the object's secret keeps its own). A
 * repeat of a deleted entry finds its key unknown and runs as a first request. The number deleted.
 */
export async function purgeObjectAnswers(db: Db, object: string, o: { below?: boolean; except?: { caller: string; key: string } } = {}): Promise<number> {
  const escaped = object.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  const which = o.below ? or(eq(idempotencyKeys.object, object), like(idempotencyKeys.object, `${escaped}/%`)) : eq(idempotencyKeys.object, object);
  const rows = await db
    .delete(idempotencyKeys)
    .where(o.except ? and(which, not(id(o.except.caller, o.except.key)!)) : which)
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
