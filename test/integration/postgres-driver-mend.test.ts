import { connect, createServer, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hangingProxy, type HangingProxy } from '../support/hanging-proxy.js';

/**
 * postgres.js 3.4.9, as scripts/patch-postgres.mjs mends it at install. Unmended, a connection whose
 * socket closed while a write was batched calls `socket.write` on null from a setImmediate: an
 * uncaught TypeError that ends the API or the worker (met by the database-cut test once the worker's
 * connections were cut too). A connection pinned with `reserve()` shows it on its first query after
 * the cut, every time (porsager/postgres#1208). Mended, that query fails with CONNECTION_CLOSED,
 * which the service reads as the registry being unavailable (503, or the activity retried).
 */
let pg: HangingProxy;
const uncaught: unknown[] = [];
const keep = (err: unknown) => void uncaught.push(err);
const unhandled: unknown[] = [];
const keepUnhandled = (err: unknown) => void unhandled.push(err);

beforeAll(async () => {
  pg = await hangingProxy();
  const base = new URL(inject('pgBaseUrl'));
  pg.target = { host: base.hostname, port: Number(base.port || 5432) };
  process.on('uncaughtException', keep);
  process.on('unhandledRejection', keepUnhandled);
});

afterAll(async () => {
  process.off('uncaughtException', keep);
  process.off('unhandledRejection', keepUnhandled);
  await pg?.close();
});

describe('postgres.js after its connection is cut', () => {
  it('a query on the cut connection fails with CONNECTION_CLOSED, and nothing escapes as an uncaught exception', async () => {
    const base = new URL(inject('pgBaseUrl'));
    const url = new URL(base);
    url.host = pg.hostPort;
    const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
    const pinned = await sql.reserve();
    expect(await pinned`select 1::int as x`).toEqual([{ x: 1 }]);

    pg.setDown(true);
    await new Promise((r) => setTimeout(r, 100));
    pg.setDown(false);

    const after = pinned`select 2::int as x`.then(
      () => 'answered',
      (err: { code?: string }) => err.code,
    );
    const settled = await Promise.race([after, new Promise((r) => setTimeout(() => r('no answer in 3 s'), 3_000))]);
    // Let any batched write still pending run before counting what escaped.
    await new Promise((r) => setTimeout(r, 50));
    expect(uncaught.map(String)).toEqual([]);
    expect(settled).toBe('CONNECTION_CLOSED');
    await sql.end({ timeout: 1 }).catch(() => undefined);
  });
});

/**
 * A TCP proxy to PostgreSQL that resets the first connection the moment its client asks for the
 * array types (the query postgres.js runs first on every new connection), as a database restart
 * or a network cut landing then would.
 */
async function resetAtTypeFetch(): Promise<{ url: string; resets: () => number; close(): Promise<void> }> {
  const base = new URL(inject('pgBaseUrl'));
  let resets = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(base.port || 5432), base.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    upstream.pipe(client);
    client.on('data', (d: Buffer) => {
      if (resets === 0 && d.includes('typarray')) {
        resets++;
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      upstream.write(d);
    });
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(base);
  url.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: url.toString(),
    resets: () => resets,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('postgres.js with its connection reset while it fetches the array types', () => {
  it('the query that opened the connection settles, the next one answers, and no rejection escapes unhandled', async () => {
    const proxy = await resetAtTypeFetch();
    const sql = postgres(proxy.url, { max: 1, onnotice: () => {}, backoff: () => 0.05 });
    try {
      const first = await sql`select 1::int as x`.then(
        (rows) => rows,
        (err: { code?: string }) => err.code,
      );
      expect(proxy.resets()).toBe(1);
      expect(await sql`select 2::int as x`).toEqual([{ x: 2 }]);
      // Unhandled rejections are reported after a turn of the event loop.
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled.map(String)).toEqual([]);
      // The first query was either re-sent on the new connection or failed as the connection's was.
      expect([[{ x: 1 }], 'ECONNRESET', 'CONNECTION_CLOSED']).toContainEqual(first);
    } finally {
      await sql.end({ timeout: 1 }).catch(() => undefined);
      await proxy.close();
    }
  });
});

describe('postgres.js with callers querying again the moment their connection errs', () => {
  it('every query settles once the database is back, each with its own answer', async () => {
    // Ten connections busy with twelve callers, each asking again as soon as its query fails: some
    // ask on a connection between its socket's error and its close. Unmended, those waited forever
    // (and the connection's next answers could go to the wrong query): round 0 hung every time.
    const sql = postgres(`postgres://postgres@${pg.hostPort}/postgres`, { max: 10, onnotice: () => {}, backoff: () => 0.05 });
    const stuck: string[] = [];
    const wrong: string[] = [];
    try {
      await sql`select 1`;
      for (let round = 0; round < 5; round++) {
        let stop = false;
        const pending = new Map<number, number>();
        let next = 0;
        const callers = Promise.all(
          Array.from({ length: 12 }, async () => {
            while (!stop) {
              const id = next++;
              pending.set(id, Date.now());
              const got = await sql`select ${id}::int as id, pg_sleep(0.01)`.then(
                (rows) => rows[0]?.id,
                () => id,
              );
              if (got !== id) wrong.push(`round ${round}: query ${id} answered ${got}`);
              pending.delete(id);
            }
          }),
        );
        await new Promise((r) => setTimeout(r, 100 + round * 40));
        pg.setDown(true);
        await new Promise((r) => setTimeout(r, 300));
        pg.setDown(false);
        await new Promise((r) => setTimeout(r, 200));
        stop = true;
        await Promise.race([callers, new Promise((r) => setTimeout(r, 5_000))]);
        if (pending.size) stuck.push(`round ${round}: ${pending.size} queries unsettled 5 s after the database came back`);
        if (pending.size) break;
      }
      expect(stuck).toEqual([]);
      expect(wrong).toEqual([]);
    } finally {
      await sql.end({ timeout: 1 }).catch(() => undefined);
    }
  }, 60_000);
});
