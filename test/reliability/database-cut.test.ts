import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import { expectFillConverged, startFill } from '../support/fill.js';
import { hangingProxy, type HangingProxy } from '../support/hanging-proxy.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * The registry's database goes away in the middle of a fill (issue 31 item 2): every connection of
 * the API and the worker is reset and new ones are refused for 6 s, as a restart of
 * PostgreSQL looks from the service (the suite's PostgreSQL is shared by the other files, so the
 * cut is a TCP proxy in front of it, not a restart of the server). While it is away a call answers
 * 503 with a JSON reason within PROBE_BOUND_MS (never 502 or 500, never a hang) and /readyz says
 * unreachable; a call in flight when it went answers 2xx or 503 within ANSWER_BOUND_MS of its
 * return, and a call sent RECOVERY_MS after it is back no longer answers 503; repeating every call
 * that did not answer 2xx converges; afterwards the registry and the backends agree, and no lease is
 * left held.
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
/** A call sent while the database is away: the API's registry read fails at once (measured: under 200 ms). */
const PROBE_BOUND_MS = 2_000;
/**
 * A call in flight when the database went: its run's registry activity retries or gives up, and an
 * attempt started just before the return ends within its own bound (REGISTRY_OPTIONS, 15 s;
 * measured: the last answer 1.6 s after the return).
 */
const ANSWER_BOUND_MS = 15_000;
/** How much later the service hears the registry's answers in the commit-cut case: the window the cut lands in. */
const ANSWER_DELAY_MS = 40;
/** Once back, the driver reconnects within its backoff, capped at 1 s (db/registry.ts): twice that. */
const RECOVERY_MS = 2_000;

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
  /** When it was sent and answered (epoch ms). */
  sent: number;
  at: number;
}

/** Sends the call until it answers neither 502 nor 503 (or `repeats` times), as a client does; keeps every answer. */
async function converge(call: string, send: () => Promise<Answer>, seen: Seen[], repeats = 240): Promise<Answer> {
  for (let i = 0; ; i++) {
    const sent = Date.now();
    const r = await send();
    seen.push({ call: `${call} #${i}`, status: r.status, ms: Date.now() - sent, text: r.text, sent, at: Date.now() });
    if ((r.status !== 502 && r.status !== 503) || i >= repeats) return r;
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
    const filling = startFill(site, names, CALLERS, (label, send) => converge(label, send, seen));
    const finals = filling.finals;

    // The cut lands in the middle: some tenants done, others in flight.
    while (filling.answered() < 4) await new Promise((x) => setTimeout(x, 50));
    const cutStart = Date.now();
    pg.setDown(true);
    // A client calling while it is away: a read and a create of a name of its own, every half second.
    const probes: Seen[] = [];
    const probing = (async () => {
      for (let i = 0; Date.now() - cutStart < DOWN_MS - PROBE_BOUND_MS; i++) {
        await Promise.all([
          converge(`read while away`, () => site.call('GET', '/v1/tenants/cut0'), probes, 0),
          converge(`create while away`, () => site.call('POST', '/v1/tenants', { body: { name: `away${i}` } }), probes, 0),
        ]);
        await new Promise((x) => setTimeout(x, 500));
      }
    })();
    await new Promise((x) => setTimeout(x, 1_000));
    const readyz = await fetch(`${site.url}/readyz`).then(async (r) => ({ status: r.status, text: await r.text() }));
    await new Promise((x) => setTimeout(x, DOWN_MS - 1_000));
    pg.setDown(false);
    const cutEnd = Date.now();
    await probing;
    await filling.done;

    const statuses: Record<number, number> = {};
    for (const s of seen) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    const inFlight = seen.filter((s) => s.sent < cutStart && s.at >= cutStart);
    const late = seen.filter((s) => s.sent >= cutEnd + RECOVERY_MS);
    const show = (list: Seen[]) => JSON.stringify(list.map((s) => [s.call, s.status, s.sent - cutStart, s.at - cutStart, s.text.slice(0, 200)]));
    console.log(
      `database-cut: ${seen.length} calls, answers ${JSON.stringify(statuses)}; ${probes.length} calls while away, slowest ${Math.max(...probes.map((s) => s.ms))} ms; ${inFlight.length} in flight (${inFlight.filter((s) => s.status === 503).length} answered 503), the last ${Math.max(...inFlight.map((s) => s.at)) - cutEnd} ms after the return; /readyz during the cut ${readyz.status} ${readyz.text}`,
    );

    // While it was away: each call answered 503 with its reason, while it was still away.
    expect(readyz).toEqual({ status: 503, text: '{"status":"unavailable","database":"unreachable"}' });
    expect(probes.length).toBeGreaterThan(4);
    expect(
      probes.filter((s) => s.status !== 503 || s.at > cutEnd || s.ms > PROBE_BOUND_MS || typeof JSON.parse(s.text).error !== 'string'),
      show(probes),
    ).toEqual([]);
    // The calls it met in flight: 2xx or 503 with its reason, within the bound after the return.
    expect(inFlight.length, 'the cut met calls in flight').toBeGreaterThan(0);
    expect(
      inFlight.filter((s) => ![200, 201, 503].includes(s.status) || s.at > cutEnd + ANSWER_BOUND_MS),
      show(inFlight),
    ).toEqual([]);
    for (const s of seen.filter((x) => x.status === 503)) expect(JSON.parse(s.text).error, s.text).toEqual(expect.any(String));
    // No step failed (the backends never did), and once back it stays back.
    expect(
      seen.filter((s) => ![200, 201, 503].includes(s.status)),
      show(seen),
    ).toEqual([]);
    expect(late.length).toBeGreaterThan(0);
    expect(
      late.filter((s) => s.status === 503),
      show(late),
    ).toEqual([]);

    // Everything converged: the registry and the backends agree, one identity per tenant, and no lease is held.
    await expectFillConverged(site, names, finals, {
      workloadWhy: (name) =>
        `${name}: ${JSON.stringify(seen.filter((s) => s.call.startsWith(`workload of ${name} `)).map((s) => [s.call, s.status, s.text.slice(0, 300)]))}`,
    });
  }, 600_000);

  /**
   * The narrowest window of the cut: the create's last registry write (the tenant ready, its audit
   * entry) has committed, and the registry goes before the activity has read back the answer. Five
   * quick attempts of that activity used to fail within the cut: the caller got 503, and its repeat
   * found the tenant ready and answered 409, the secrets never shown (a CI run of the fill above).
   * The commit is seen from PostgreSQL itself (a trigger's notification, delivered at commit, on a
   * connection of the test's own) and the service's answers are slowed by ANSWER_DELAY_MS at the
   * proxy, so the cut lands between the commit and the service hearing of it.
   */
  it('a cut right after a create commits its tenant ready: the caller still gets its secrets, and the audit log one entry', async () => {
    const name = 'readycut';
    await site.registry.sql.unsafe(`
      create or replace function test_ready_notice() returns trigger language plpgsql as $$
      begin perform pg_notify('tenant_ready', new.name); return new; end $$;
      drop trigger if exists test_ready_notice on tenants;
      create trigger test_ready_notice after update on tenants for each row
        when (new.status = 'ready' and old.status is distinct from 'ready' and new.name = '${name}')
        execute function test_ready_notice();`);
    let cutAt = 0;
    let cutEnd = 0;
    const listening = await site.registry.sql.listen('tenant_ready', (tenant) => {
      if (tenant !== name || cutAt) return;
      pg.setDown(true);
      cutAt = Date.now();
      setTimeout(() => {
        pg.setDown(false);
        pg.answerDelayMs = 0;
        cutEnd = Date.now();
      }, DOWN_MS);
    });
    pg.answerDelayMs = ANSWER_DELAY_MS;
    try {
      const seen: Seen[] = [];
      const answer = await converge(`create ${name}`, () => site.call('POST', '/v1/tenants', { body: { name } }), seen);
      const show = JSON.stringify(seen.map((s) => [s.call, s.status, s.sent - cutAt, s.at - cutAt, s.text.slice(0, 200)]));
      expect(cutAt, 'the tenant was committed ready (the cut came)').toBeGreaterThan(0);
      expect(seen[0]!.at, `the first call was still waiting when the registry went: ${show}`).toBeGreaterThan(cutAt);
      expect(answer.status, show).toBe(201);
      expect(answer.body.api_token, show).toEqual(expect.any(String));
      expect(answer.body.dns?.tsig_secret, show).toEqual(expect.any(String));
      expect(cutEnd, 'the answer came once the registry was back').toBeGreaterThan(0);
      // The secrets it showed are the tenant's: the token works.
      const own = await site.call('GET', `/v1/tenants/${name}`, { token: answer.body.api_token });
      expect(own.status).toBe(200);
      const entries = await site.registry.sql`select action from audit_log where tenant = ${name} and action = 'tenant.create'`;
      expect(entries.length, 'one create, one entry').toBe(1);
    } finally {
      pg.answerDelayMs = 0;
      await listening.unlisten();
      if (cutAt && !cutEnd) await new Promise((x) => setTimeout(x, DOWN_MS));
    }
  }, 180_000);
});
