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

beforeAll(async () => {
  pg = await hangingProxy();
  const base = new URL(inject('pgBaseUrl'));
  pg.target = { host: base.hostname, port: Number(base.port || 5432) };
  process.on('uncaughtException', keep);
});

afterAll(async () => {
  process.off('uncaughtException', keep);
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
