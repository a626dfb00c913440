import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import { ALL_ONE, tenantObjects } from '../support/backend-objects.js';
import { hangingProxy, type HangingProxy } from '../support/hanging-proxy.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * The registry's database goes away in the middle of a fill (issue 31 item 2): every connection of
 * the API and the worker is reset and new ones are refused for 6 s, as a restart of
 * PostgreSQL looks from the service (the suite's PostgreSQL is shared by the other files, so the
 * cut is a TCP proxy in front of it, not a restart of the server). While it is away the API
 * answers 503 with a JSON reason (never 500, never a hang) and /readyz says unreachable; the runs
 * in flight retry their registry activities and complete; repeating every call that did not answer
 * 2xx converges; afterwards the registry and the backends agree, and no lease is left held.
 */
const TENANTS = 20;
const CALLERS = 8;
/**
 * 6 s, as a PostgreSQL restart takes. At 20 s (longer than a registry activity's 15 s attempt) two
 * runs in two tries left a lease held until the release was retried for the lease's lifetime
 * (workflows/activity-options.ts); with that, 20 s passed 3 times in 4 but one CI run hung to
 * the test's bound (docs/reliability.md), so the longer cut is not yet part of the suite.
 */
const DOWN_MS = 6_000;

let site: TestSite;
let pg: HangingProxy;

beforeAll(async () => {
  pg = await hangingProxy();
  const base = new URL(inject('pgBaseUrl'));
  pg.target = { host: base.hostname, port: Number(base.port || 5432) };
  site = await startTestSite({
    env: (built) => {
      const url = new URL(built.DATABASE_URL!);
      url.host = pg.hostPort;
      return { DATABASE_URL: url.toString() };
    },
  });
}, 180_000);

afterAll(async () => {
  await site?.stop();
  await pg?.close();
});

type Answer = Awaited<ReturnType<TestSite['call']>>;
interface Seen {
  call: string;
  status: number;
  ms: number;
  text: string;
}

/** Sends the call until it answers neither 502 nor 503, as a client does; keeps every answer. */
async function converge(call: string, send: () => Promise<Answer>, seen: Seen[]): Promise<Answer> {
  for (let i = 0; ; i++) {
    const started = Date.now();
    const r = await send();
    seen.push({ call: `${call} #${i}`, status: r.status, ms: Date.now() - started, text: r.text });
    if ((r.status !== 502 && r.status !== 503) || i >= 240) return r;
    await new Promise((x) => setTimeout(x, 250));
  }
}

describe('the registry database cut during a fill', () => {
  it(`${TENANTS} tenants with a workload and a record each, ${CALLERS} callers: 503 while it is away, everything converges, registry and backends agree`, async () => {
    // A failure here has been rare and load-dependent: what the service logged says why.
    onTestFailed(() => {
      const problems = site.logs.filter((l) => /"level":(40|50|60)/.test(l)).slice(-60);
      console.log(`database-cut: the service's warnings and errors (last ${problems.length}):\n${problems.map((l) => l.slice(0, 800)).join('\n')}`);
    });
    const seen: Seen[] = [];
    const names = Array.from({ length: TENANTS }, (_, i) => `cut${i}`);
    const finals = new Map<string, { tenant: Answer; workload: Answer; record: Answer }>();
    let answered = 0;
    const queue = [...names];
    const fill = Promise.all(
      Array.from({ length: CALLERS }, async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          const tenant = await converge(`create ${name}`, () => site.call('POST', '/v1/tenants', { body: { name } }), seen);
          answered++;
          const workload = await converge(
            `workload of ${name}`,
            () => site.call('POST', `/v1/tenants/${name}/workloads`, { body: { name: 'web', cores: 1, memory_mb: 512 } }),
            seen,
          );
          const prefix = String(tenant.body?.network?.subnet ?? '')
            .split('.')
            .slice(0, 3)
            .join('.');
          const record = await converge(
            `record of ${name}`,
            () => site.call('PUT', `/v1/tenants/${name}/records/www`, { body: { address: `${prefix}.10` } }),
            seen,
          );
          finals.set(name, { tenant, workload, record });
        }
      }),
    );

    // The cut lands in the middle: some tenants done, others in flight.
    while (answered < 4) await new Promise((x) => setTimeout(x, 50));
    const cutAt = seen.length;
    pg.setDown(true);
    await new Promise((x) => setTimeout(x, 1_000));
    const readyz = await fetch(`${site.url}/readyz`).then(async (r) => ({ status: r.status, text: await r.text() }));
    await new Promise((x) => setTimeout(x, DOWN_MS - 1_000));
    pg.setDown(false);
    await fill;

    const statuses: Record<number, number> = {};
    for (const s of seen) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    const duringCut = seen.slice(cutAt).filter((s) => s.status === 503 || s.status === 502).length;
    console.log(
      `database-cut: ${seen.length} calls, answers ${JSON.stringify(statuses)}, ${duringCut} refused or failed after the cut, slowest answer ${Math.max(...seen.map((s) => s.ms))} ms; /readyz during the cut ${readyz.status} ${readyz.text}`,
    );

    // While it was away: answers, never a 500 or a hang, each 503 with its reason.
    expect(readyz).toEqual({ status: 503, text: '{"status":"unavailable","database":"unreachable"}' });
    expect(
      Object.keys(statuses)
        .map(Number)
        .filter((s) => ![200, 201, 502, 503].includes(s)),
      JSON.stringify(seen.filter((s) => ![200, 201, 502, 503].includes(s.status))),
    ).toEqual([]);
    for (const s of seen.filter((x) => x.status === 503)) expect(JSON.parse(s.text).error, s.text).toEqual(expect.any(String));
    expect(Math.max(...seen.map((s) => s.ms))).toBeLessThan(60_000);
    expect(duringCut, 'the cut met calls in flight').toBeGreaterThan(0);

    // Everything converged.
    for (const [name, f] of finals) {
      expect([200, 201], `${name} ${f.tenant.text}`).toContain(f.tenant.status);
      expect([200, 201], `${name} ${f.workload.text}`).toContain(f.workload.status);
      expect(f.record.status, `${name} ${f.record.text}`).toBe(200);
    }
    expect(finals.size).toBe(TENANTS);

    // The registry and the backends agree, one identity per tenant, and no lease is held.
    const rows = await site.registry.sql<{ name: string; index: number; status: string }[]>`select name, index, status from tenants order by name`;
    expect(rows.map((r) => r.name)).toEqual([...names].sort());
    expect(rows.every((r) => r.status === 'ready')).toBe(true);
    expect(new Set(rows.map((r) => r.index)).size).toBe(TENANTS);
    for (const row of rows) {
      expect(await tenantObjects(site, row.name, row.index), row.name).toEqual(ALL_ONE);
      const w = await site.call('GET', `/v1/tenants/${row.name}/workloads/web`);
      expect(
        w.body.status,
        `${row.name}: ${JSON.stringify(seen.filter((s) => s.call.startsWith(`workload of ${row.name} `)).map((s) => [s.call, s.status, s.text.slice(0, 300)]))}`,
      ).toBe('ready');
      const records = (await site.call('GET', `/v1/tenants/${row.name}/records`)).body.records;
      expect(
        records.map((r: { name: string }) => r.name),
        row.name,
      ).toEqual(['www']);
    }
    expect(await site.registry.sql`select tenant, holder from tenant_leases`).toEqual([]);
  }, 600_000);
});
