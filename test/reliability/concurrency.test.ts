import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ONE, heldStateSecret, heldTsigSecret, siteTotals, tenantObjects } from '../support/backend-objects.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { twoWorkers } from '../support/workers.js';

/**
 * Identical creates arriving together, many names at once, through one API and worker and then
 * through two of each: every name ends with exactly one identity (index, TSIG secret, state
 * secret, API token) and no two names share an index.
 */
let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.stop();
});

type Answer = { status: number; body: any; text: string };

async function create(url: string, name: string): Promise<Answer> {
  const res = await fetch(`${url}/v1/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${site.operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

/** Step attempts that failed (and were retried) since log line `from`: contention shows here first. */
const stepFailures = (from: number) => site.logs.slice(from).filter((l) => l.includes('backend step failed')).length;

const exited = (c: ChildProcess) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r)));

/**
 * Checks the answers of `copies` identical creates per name. Every copy is answered 201 with the
 * one identity; a copy that reaches Temporal only after the create completed answers 409 (the
 * tenant is ready and the copy carried no secrets), which gives no identity at all.
 */
async function expectOneIdentityEach(names: string[], answers: Answer[][]) {
  const figures = { created: 0, lateConflicts: 0 };
  const indexes = new Set<number>();
  for (const [i, name] of names.entries()) {
    const got = answers[i]!;
    for (const a of got) {
      if (a.status === 409) {
        expect(a.body.error, name).toMatch(/^tenant already exists/);
        figures.lateConflicts++;
      } else {
        expect(a.status, `${name}: ${a.text}`).toBe(201);
        expect(a.body.outcome).toBe('created');
        figures.created++;
      }
    }
    const ok = got.filter((a) => a.status === 201);
    expect(ok.length, name).toBeGreaterThan(0);
    const identity = (a: Answer) => JSON.stringify([a.body.index, a.body.dns.tsig_secret, a.body.state.secret_key, a.body.api_token]);
    expect(new Set(ok.map(identity)).size, name).toBe(1);
    const one = ok[0]!.body;
    indexes.add(one.index);
    expect(await tenantObjects(site, name, one.index), name).toEqual(ALL_ONE);
    expect(await heldTsigSecret(site, name)).toBe(one.dns.tsig_secret);
    expect(heldStateSecret(site, name)).toBe(one.state.secret_key);
  }
  expect(indexes.size).toBe(names.length);
  return figures;
}

describe('concurrent identical creates', () => {
  it('5 copies x 20 names at once through one API and worker: one identity per name, 20 indexes', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `conc${i}`);
    const logsAt = site.logs.length;
    const started = Date.now();
    // All 100 requests are in flight together (the machine takes it: 2 cores, one API process).
    const answers = await Promise.all(names.map((name) => Promise.all(Array.from({ length: 5 }, () => create(site.url, name)))));
    const ms = Date.now() - started;
    const figures = await expectOneIdentityEach(names, answers);
    console.log(`concurrency/one-api: 100 requests in ${ms} ms: ${JSON.stringify({ ...figures, stepAttemptsFailed: stepFailures(logsAt) })}`);
    const totals = await siteTotals(site);
    expect(totals).toMatchObject({ reverseZones: 20, fabricZones: 20, vnets: 20, subnets: 20, stateUsers: 20, orgs: 20, forwards: 40, logRoutes: 40 });
  }, 120_000);

  it('5 copies x 10 more names through 2 API processes and 2 worker processes, alternating: the same', async () => {
    // Both workers poll before the first call, so either can take any of the runs and activities.
    const workers = await twoWorkers(site);
    const apis = await Promise.all([site.spawnApi(), site.spawnApi()]);
    try {
      const names = Array.from({ length: 10 }, (_, i) => `conp${i}`);
      const logsAt = site.logs.length;
      const started = Date.now();
      let n = 0;
      const answers = await Promise.all(names.map((name) => Promise.all(Array.from({ length: 5 }, () => create(apis[n++ % 2]!.url, name)))));
      const ms = Date.now() - started;
      const figures = await expectOneIdentityEach(names, answers);
      console.log(`concurrency/two-apis-two-workers: 50 requests in ${ms} ms: ${JSON.stringify({ ...figures, stepAttemptsFailed: stepFailures(logsAt) })}`);
      const rows = await site.registry.sql<{ index: number }[]>`select index from tenants`;
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r.index)).size).toBe(30);
      const totals = await siteTotals(site);
      expect(totals).toMatchObject({ reverseZones: 30, fabricZones: 30, vnets: 30, subnets: 30, stateUsers: 30, orgs: 30, forwards: 60, logRoutes: 60 });
      // Both took part: each worker ran the contended fabric write for some tenant.
      expect([...(await workers.workers('network.ensure'))].sort()).toEqual([...workers.identities].sort());
    } finally {
      for (const c of apis.map((a) => a.child)) {
        c.kill('SIGTERM');
        await exited(c);
      }
      await workers.stop();
    }
  }, 120_000);
});
