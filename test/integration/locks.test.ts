import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_SPACE, lockWithin, untilUnheld, whileLocked } from '../../db/queries/locks.js';
import * as schema from '../../db/schema/index.js';
import { freshDatabase } from '../support/database.js';

/**
 * The bounded wait for a lock a slow backend write holds (the fabric's, the log gateway's): it must
 * outlast the registry's statement timeout, give up at its own bound with the transaction still
 * usable, and leave the rest of the transaction under the session's timeouts.
 */
let url: string;
let client: postgres.Sql;
let db: ReturnType<typeof drizzle<typeof schema>>;
beforeAll(async () => {
  // A registry whose statement timeout is short, as the real one's 15 s is against a minute's wait.
  url = await freshDatabase();
  client = postgres(url, { max: 4, onnotice: () => {}, connection: { statement_timeout: 300 } });
  db = drizzle(client, { schema });
});
afterAll(async () => {
  await client?.end();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Another worker's transaction holding the fabric lock of `key` until `release()`; resolves once it holds it. */
async function hold(key: string): Promise<{ release: () => Promise<void> }> {
  let held!: () => void;
  let done!: () => void;
  const holding = new Promise<void>((r) => (held = r));
  const released = new Promise<void>((r) => (done = r));
  const holder = db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE.fabric}::int, hashtext(${key}))`);
    held();
    await released;
  });
  await Promise.race([holding, holder]);
  return { release: () => (done(), holder) };
}
const setting = async (tx: { execute: typeof db.execute }, name: string) =>
  ((await tx.execute(sql`select current_setting(${name}) as v`)) as unknown as { v: string }[])[0]!.v;

describe('lockWithin', () => {
  it('waits past the statement timeout for a holder that takes longer, then runs the rest under the session timeouts', async () => {
    const holder = await hold('t1');
    const waited = db.transaction(async (tx) => {
      const got = await lockWithin(tx, LOCK_SPACE.fabric, 't1', 10_000);
      return { got, statement: await setting(tx, 'statement_timeout'), lock: await setting(tx, 'lock_timeout') };
    });
    // The holder keeps it for four of the waiter's statement timeouts.
    await sleep(1_200);
    await holder.release();
    expect(await waited).toEqual({ got: true, statement: '300ms', lock: '0' });
  });

  it("gives up at its bound with the transaction still usable, and the lock still the holder's", async () => {
    const holder = await hold('t2');
    try {
      const after = await db.transaction(async (tx) => {
        const got = await lockWithin(tx, LOCK_SPACE.fabric, 't2', 150);
        const [row] = (await tx.execute(sql`select 1 as one`)) as unknown as { one: number }[];
        return { got, one: row!.one, lock: await setting(tx, 'lock_timeout'), statement: await setting(tx, 'statement_timeout') };
      });
      expect(after).toEqual({ got: false, one: 1, lock: '0', statement: '300ms' });
      const [free] = (await db.execute(sql`select pg_try_advisory_lock(${LOCK_SPACE.fabric}::int, hashtext('t2')) as locked`)) as unknown as {
        locked: boolean;
      }[];
      expect(free!.locked).toBe(false);
    } finally {
      await holder.release();
    }
  });

  it('hands the lock to each of several waiters in turn, none given it while another holds it', async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 4 }, () =>
        db.transaction(async (tx) => {
          expect(await lockWithin(tx, LOCK_SPACE.fabric, 't3', 10_000)).toBe(true);
          most = Math.max(most, ++inside);
          await sleep(100);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });
});

/** The statements a registry connection sends, to count a take's round trips. */
async function counting(): Promise<{ db: typeof db; sent: string[]; end: () => Promise<void> }> {
  const sent: string[] = [];
  const c = postgres(url, { max: 1, onnotice: () => {}, debug: (_conn, query) => void sent.push(query.trim()) });
  return { db: drizzle(c, { schema }), sent, end: () => c.end() };
}

describe('a free lock', () => {
  it('is taken in one statement, with no savepoint and the timeouts left alone, and released with the transaction', async () => {
    const { db: counted, sent, end } = await counting();
    try {
      await counted.transaction(async (tx) => {
        sent.length = 0;
        expect(await lockWithin(tx, LOCK_SPACE.fabric, 'f1', 10_000)).toBe(true);
        expect(sent).toEqual([expect.stringMatching(/^select pg_try_advisory_xact_lock\(/)]);
      });
      const [free] = (await db.execute(sql`select pg_try_advisory_lock(${LOCK_SPACE.fabric}::int, hashtext('f1')) as locked`)) as unknown as {
        locked: boolean;
      }[];
      expect(free!.locked).toBe(true);
      await db.execute(sql`select pg_advisory_unlock(${LOCK_SPACE.fabric}::int, hashtext('f1'))`);
    } finally {
      await end();
    }
  });

  it('held for a while inside a transaction costs its take and its release, and is free once the work ends', async () => {
    const { db: counted, sent, end } = await counting();
    try {
      await counted.transaction(async (tx) => {
        sent.length = 0;
        const r = await whileLocked(tx, LOCK_SPACE.fabric, 'f2', 10_000, async () => {
          const [mine] = (await db.execute(sql`select pg_try_advisory_xact_lock(${LOCK_SPACE.fabric}::int, hashtext('f2')) as locked`)) as unknown as {
            locked: boolean;
          }[];
          return mine!.locked;
        });
        // Another connection could not take it while the work ran.
        expect(r).toEqual({ ran: true, value: false });
        expect(sent).toEqual([expect.stringMatching(/^select pg_try_advisory_lock\(/), expect.stringMatching(/^select pg_advisory_unlock\(/)]);
        const [after] = (await db.execute(sql`select pg_try_advisory_xact_lock(${LOCK_SPACE.fabric}::int, hashtext('f2')) as locked`)) as unknown as {
          locked: boolean;
        }[];
        expect(after!.locked).toBe(true);
      });
    } finally {
      await end();
    }
  });

  it('held by another is waited for in the queue, and the waiter runs once the holder ends', async () => {
    const holder = await hold('f3');
    let ran = false;
    const waiting = db.transaction((tx) =>
      whileLocked(tx, LOCK_SPACE.fabric, 'f3', 10_000, async () => {
        ran = true;
      }),
    );
    await sleep(400);
    expect(ran).toBe(false);
    await holder.release();
    expect(await waiting).toEqual({ ran: true, value: undefined });
  });
});

describe('untilUnheld', () => {
  const free = async (key: string) =>
    (
      (await db.execute(sql`select pg_try_advisory_xact_lock(${LOCK_SPACE.fabric}::int, hashtext(${key})) as locked`)) as unknown as {
        locked: boolean;
      }[]
    )[0]!.locked;

  it('waits while the lock is held, lets every waiter go once it is released, and holds nothing after', async () => {
    const holder = await hold('t4');
    const ended: string[] = [];
    const waiters = Array.from({ length: 3 }, () => untilUnheld(db, LOCK_SPACE.fabric, 't4', 10_000).then((was) => ended.push(was)));
    await sleep(300);
    expect(ended).toEqual([]);
    await holder.release();
    await Promise.all(waiters);
    expect(ended).toEqual(['held', 'held', 'held']);
    expect(await free('t4')).toBe(true);
    // Free now: it says so at once, and takes nothing.
    expect(await untilUnheld(db, LOCK_SPACE.fabric, 't4', 10_000)).toBe('free');
    expect(await free('t4')).toBe(true);
  });

  it('free, answers in one statement and leaves nothing held', async () => {
    const { db: counted, sent, end } = await counting();
    try {
      expect(await untilUnheld(counted, LOCK_SPACE.fabric, 't6', 10_000)).toBe('free');
      expect(sent.filter((q) => !/^select b\.oid/.test(q))).toEqual([expect.stringMatching(/^select pg_try_advisory_xact_lock_shared\(/)]);
      expect(await free('t6')).toBe(true);
    } finally {
      await end();
    }
  });

  it('is false at its bound while the holder keeps it', async () => {
    const holder = await hold('t5');
    try {
      expect(await untilUnheld(db, LOCK_SPACE.fabric, 't5', 150)).toBe('timed-out');
    } finally {
      await holder.release();
    }
  });
});
