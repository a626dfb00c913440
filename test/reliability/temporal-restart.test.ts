import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../temporal/dev-server.js';
import { expectFillConverged, startFill } from '../support/fill.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * The Temporal server is killed and restarted in the middle of a fill (issue 31 item 1): a dev
 * server of this file's own, on a SQLite file, gets SIGKILL and comes back on the same file, port
 * and settings. While it is away the API answers 503 with a JSON reason (never 500, never a hang);
 * the runs in flight resume once it is back (the worker's connection finds it again by itself);
 * repeating every call that did not answer 2xx converges, and a create whose answer was lost to
 * the 503 while its run went on gets that run's answer with its secrets on the repeat, not a 409;
 * afterwards registry, backends and histories agree, each tenant with one identity and its own
 * secrets, and no lease is left held.
 */
const TENANTS = 20;
const CALLERS = 8;
/**
 * Longer than the API's ride-out: the Temporal client retries an UNAVAILABLE call for about 20 s
 * (10 attempts, backoff 100 ms x 1.7^n capped at 5 s) before the API answers 503; a shorter outage
 * is ridden through and answers 2xx late (measured: 5 s away, slowest answer 13 s, no 503).
 */
const DOWN_MS = 25_000;
/** The longest a call may take: the API's own bounds, not the test's patience. */
const CALL_BOUND_MS = 60_000;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let site: TestSite;
let temporal: DevServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'temporal-restart-'));
  temporal = await startDevServer({ projectRoot: root, dbFile: join(dir, 'temporal.db') });
  site = await startTestSite({ temporalAddress: temporal.address });
}, 180_000);

afterAll(async () => {
  await site?.stop();
  await temporal?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Answer = Awaited<ReturnType<TestSite['call']>>;
interface Seen {
  status: number;
  ms: number;
  text: string;
  at: number;
  what: string;
}

/** Sends the call until it answers neither 502 nor 503, as a client does; keeps every answer. */
async function converge(what: string, send: () => Promise<Answer>, seen: Seen[]): Promise<Answer> {
  for (let i = 0; ; i++) {
    const started = Date.now();
    const r = await send();
    seen.push({ status: r.status, ms: Date.now() - started, text: r.text, at: Date.now(), what });
    if ((r.status !== 502 && r.status !== 503) || i >= 120) return r;
    await new Promise((x) => setTimeout(x, 250));
  }
}

describe('the Temporal server killed and restarted during a fill', () => {
  it(`${TENANTS} tenants with a workload and a record each, ${CALLERS} callers: 503 while it is away, runs resume, everything converges with its secrets`, async () => {
    const seen: Seen[] = [];
    const names = Array.from({ length: TENANTS }, (_, i) => `tk${i}`);
    const began = Date.now();
    const filling = startFill(site, names, CALLERS, (label, send) => converge(label, send, seen));
    const finals = filling.finals;

    // The kill lands in the middle: some tenants done, others in flight.
    while (filling.answered() < 4) await new Promise((x) => setTimeout(x, 50));
    const killedAt = Date.now();
    temporal.process.kill('SIGKILL');
    await new Promise<void>((r) =>
      temporal.process.exitCode !== null || temporal.process.signalCode !== null ? r() : temporal.process.once('exit', () => r()),
    );
    await new Promise((x) => setTimeout(x, DOWN_MS));
    const restartedAt = Date.now();
    // On its port again: the site's clients know only that address.
    temporal = await startDevServer({ projectRoot: root, port: temporal.port, dbFile: join(dir, 'temporal.db') });
    const backAt = Date.now();
    await filling.done;
    const convergedAt = Date.now();

    const statuses: Record<number, number> = {};
    for (const s of seen) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    const away = seen.filter((s) => s.at >= killedAt && s.at <= backAt);
    const lostCreates = new Set(seen.filter((s) => s.what.startsWith('create') && s.status === 503).map((s) => s.what)).size;
    const after = seen.filter((s) => s.at > backAt);

    const census = { tenants: 0, objects: 0 };
    const summary = () =>
      `temporal-restart: ${seen.length} calls, answers ${JSON.stringify(statuses)}; ${away.length} answered while the server was away or starting (${away.filter((s) => s.status === 503).length} of them 503), ` +
      `${lostCreates} creates answered 503 and were repeated, ${after.length} after it was back; down ${restartedAt - killedAt} ms, restart took ${backAt - restartedAt} ms, ` +
      `converged ${convergedAt - backAt} ms after it was back (fill ${convergedAt - began} ms); slowest answer ${Math.max(...seen.map((s) => s.ms))} ms; ${census.tenants ? `census: ${census.tenants} tenants, ${census.objects} tenant × object-kind counts checked` : 'census not reached yet'}`;
    console.log(summary());
    console.log(
      JSON.stringify(
        seen
          .filter((x) => (x.status !== 200 && x.status !== 201) || x.ms > 3000)
          .map(({ text, ...x }) => ({ ...x, at: x.at - killedAt, text: text.slice(0, 120) })),
      ),
    );

    // While it was away: answers, never a 500 or a hang, each 503 with its reason.
    expect(
      Object.keys(statuses)
        .map(Number)
        .filter((s) => ![200, 201, 502, 503].includes(s)),
      JSON.stringify(seen.filter((s) => ![200, 201, 502, 503].includes(s.status))),
    ).toEqual([]);
    for (const s of seen.filter((x) => x.status === 503)) expect(JSON.parse(s.text).error, s.text).toEqual(expect.any(String));
    expect(Math.max(...seen.map((s) => s.ms))).toBeLessThan(CALL_BOUND_MS);
    expect(away.filter((s) => s.status === 503).length, 'calls met the server away').toBeGreaterThan(0);

    // Everything converged; the census: registry and backends agree, one identity and its own secrets per tenant, no lease held.
    let objects = 0;
    const rows = await expectFillConverged(site, names, finals, {
      eachTenant: async (row, held) => {
        objects += Object.keys(held).length;
        // The token each create answered is the tenant's current one: the secrets delivered are the live ones.
        const own = await site.call('GET', `/v1/tenants/${row.name}`, { token: finals.get(row.name)!.tenant.body.api_token });
        expect(own.status, `${row.name} ${own.text}`).toBe(200);
        expect(own.body.index).toBe(row.index);
        // The histories: the tenant's create run completed (resumed after the restart where it was in flight).
        const desc = await site.client.workflow.getHandle(`tenant-create/${row.name}`).describe();
        expect(desc.status.name, row.name).toBe('COMPLETED');
      },
    });
    // Every create's final answer carries its secrets (a lost answer was collected, not refused), each tenant its own.
    for (const [name, f] of finals) {
      expect(f.tenant.body.api_token, `${name} has its token`).toEqual(expect.any(String));
      expect(f.tenant.body.dns.tsig_secret, `${name} has its tsig secret`).toEqual(expect.any(String));
    }
    const tenants = [...finals.values()].map((f) => f.tenant.body);
    for (const field of [(t: any) => t.api_token, (t: any) => t.dns.tsig_secret, (t: any) => t.state.secret_key]) {
      expect(new Set(tenants.map(field)).size).toBe(TENANTS);
    }
    census.tenants = rows.length;
    census.objects = objects;
    console.log(summary());
  }, 600_000);
});
