import { Client } from '@temporalio/client';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_RULES, startPrometheus, type RunningPrometheus } from '../../apps/lab/servers/prometheus.js';
import { ensureSweepSchedule } from '../../temporal/schedules.js';
import { reportedAddress, WORKER_METRICS_LISTENING } from '../support/reported-address.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { runIds } from '../../contracts/ids.js';
import { answerOf, expectStatus } from '../support/answer.js';

/**
 * Operators' metrics: the API and the worker serve Prometheus text on listeners of their own, a
 * real Prometheus (Debian's) scrapes them, and the README's queries answer with the right counts
 * after creates (one failed, then resumed), a reconcile and a sweep.
 */
const run = promisify(execFile);
let site: TestSite;
let prom: RunningPrometheus;
const TENANTS = ['mta', 'mtb', 'mtc'];

const scrape = async (url: string | undefined) => {
  expect(url).toBeTruthy();
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
};

/** The sum of the samples of `name` carrying these labels in an exposition, 0 when none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  return text
    .split('\n')
    .filter((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && want.every((w) => l.includes(w)))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

/** Waits until Prometheus answers the query with a series (scrapes run every second), then returns the vector. */
async function promWhen(expr: string, ok: (v: Array<{ metric: Record<string, string>; value: [number, string] }>) => boolean) {
  let last: Awaited<ReturnType<RunningPrometheus['query']>> = [];
  await waitFor(async () => ok((last = await prom.query(expr))), 30_000).catch(() => {
    throw new Error(`prometheus: ${expr} answered ${JSON.stringify(last)}`);
  });
  return last;
}

beforeAll(async () => {
  site = await startTestSite({ env: { METRICS_ADDRESS: '127.0.0.1:0', WORKER_METRICS_ADDRESS: '127.0.0.1:0' } });
  prom = await startPrometheus({
    targets: { api: [new URL(site.apiMetricsUrl!).host], worker: [new URL(site.workerMetricsUrl!).host] },
    scrapeIntervalSeconds: 1,
  });
});

afterAll(async () => {
  await prom?.stop();
  await site?.stop();
});

describe('metrics listeners', () => {
  it('are their own listeners: the API port does not serve /metrics', async () => {
    expect(site.apiMetricsUrl).not.toBe(site.url);
    expect((await fetch(`${site.url}/metrics`)).status).not.toBe(200);
    expect((await fetch(`${site.apiMetricsUrl}/other`)).status).toBe(404);
  });
});

describe('after creates (one failed, then resumed), a reconcile and a sweep', () => {
  beforeAll(async () => {
    // Prometheus holds a sample of both parts before anything happens, so increase() sees it all.
    await promWhen('sum(up)', (v) => v[0]?.value[1] === '2');
    for (const name of TENANTS.slice(0, 2)) {
      const res = await site.call('POST', '/v1/tenants', { body: { name } });
      expect(res.status, answerOf(res, site.logs)).toBe(201);
    }
    // The dns step fails for good on this create (three attempts), then the repeat resumes it.
    site.backends.pdns.faults.add({ failNext: 1000, status: 500, match: '/zones' });
    try {
      expectStatus(await site.call('POST', '/v1/tenants', { body: { name: TENANTS[2] } }), 502, site.logs);
    } finally {
      site.backends.pdns.faults.clear();
    }
  });

  it("counts parked runs by the kind of object, a workload's beside a tenant's, until they are resumed", async () => {
    // A workload's create parked too: PowerDNS refuses the name's write (a PATCH) after the VM is made.
    expectStatus(await site.call('POST', `/v1/tenants/${TENANTS[0]}/workloads`, { body: { name: 'web' } }), 201, site.logs);
    site.backends.pdns.faults.add({ failNext: 1000, status: 500, method: 'PATCH' });
    try {
      expectStatus(await site.call('POST', `/v1/tenants/${TENANTS[1]}/workloads`, { body: { name: 'web' } }), 502, site.logs);
    } finally {
      site.backends.pdns.faults.clear();
    }
    const parked = await scrape(site.apiMetricsUrl);
    expect(sample(parked, 'provisioning_parked_runs', { kind: 'tenant' })).toBe(1);
    expect(sample(parked, 'provisioning_parked_runs', { kind: 'workload' })).toBe(1);
    expect(sample(parked, 'provisioning_parked_runs')).toBe(2);
    for (const kind of ['record', 'device-address', 'wifi-key', 'broker-account']) expect(parked).toContain(`provisioning_parked_runs{kind="${kind}"} 0`);
    expect(sample(parked, 'provisioning_parked_run_oldest_age_seconds', { kind: 'tenant' })).toBeGreaterThan(0);
    expect(sample(parked, 'provisioning_tenants', { status: 'provisioning' })).toBe(1);
    expect(sample(parked, 'provisioning_tenants', { status: 'ready' })).toBe(2);

    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: TENANTS[2] } }), 200, site.logs);
    // The resumed create makes the names: 201, as a create that made its object answers.
    expectStatus(await site.call('POST', `/v1/tenants/${TENANTS[1]}/workloads`, { body: { name: 'web' } }), 201, site.logs);
    const resumed = await scrape(site.apiMetricsUrl);
    expect(sample(resumed, 'provisioning_parked_runs')).toBe(0);
    expect(sample(resumed, 'provisioning_parked_run_oldest_age_seconds')).toBe(0);
    expect(sample(resumed, 'provisioning_tenants', { status: 'ready' })).toBe(3);
  });

  it('counts HTTP requests by route template, never by a path naming a tenant', async () => {
    expectStatus(await site.call('GET', `/v1/tenants/${TENANTS[0]}`), 200, site.logs);
    const text = await scrape(site.apiMetricsUrl);
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/v1/tenants', status: '201' })).toBe(2);
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/v1/tenants', status: '502' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/v1/tenants/:t', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/v1/tenants' })).toBeGreaterThanOrEqual(4);
  });

  it('counts the failed step once as a run and three times as attempts, and backend calls by backend and result, in the worker metrics', async () => {
    const text = await scrape(site.workerMetricsUrl);
    // One create failed at its dns step for good: one failed run, of three failed attempts.
    expect(sample(text, 'provisioning_step_runs_total', { step: 'dns', operation: 'ensure', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'provisioning_step_attempts_total', { step: 'dns', operation: 'ensure', outcome: 'failed' })).toBe(3);
    // Resumed, the step ran once more and passed: a run that passed, of one attempt more.
    expect(sample(text, 'provisioning_step_runs_total', { step: 'dns', operation: 'ensure' })).toBe(
      sample(text, 'provisioning_step_attempts_total', { step: 'dns', operation: 'ensure' }) - 2,
    );
    // The workload's name write too: one failed run, three failed attempts.
    expect(sample(text, 'provisioning_step_runs_total', { step: 'dns', operation: 'publish-workload', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'provisioning_step_attempts_total', { step: 'dns', operation: 'publish-workload', outcome: 'failed' })).toBe(3);
    expect(sample(text, 'provisioning_backend_calls_total', { backend: 'powerdns', result: 'error' })).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'provisioning_backend_calls_total', { backend: 'powerdns', result: 'ok' })).toBeGreaterThan(0);
    // The same calls by the step activity that made them: where a run or a sweep spends its calls.
    expect(sample(text, 'provisioning_backend_calls_by_activity_total', { activity: 'dns.ensure', backend: 'powerdns' })).toBeGreaterThan(0);
    expect(sample(text, 'provisioning_backend_call_duration_seconds_count', { backend: 'caddy', result: 'ok' })).toBeGreaterThan(0);
  });

  it("counts a reconcile's steps by outcome, and the sweep with what it corrected", async () => {
    expectStatus(await site.call('POST', `/v1/tenants/${TENANTS[0]}/reconcile`), 200, site.logs);
    let text = await scrape(site.workerMetricsUrl);
    for (const step of ['dns', 'resolver', 'state', 'network', 'log-store', 'dashboards']) {
      expect(sample(text, 'provisioning_step_runs_total', { step, operation: 'ensure', outcome: 'in_place' }), step).toBeGreaterThanOrEqual(1);
    }
    // Drift behind the service: a zone deleted in PowerDNS; the sweep puts it back.
    const zone = await fetch(`${site.backends.pdns.apiUrl}/servers/localhost/zones/${TENANTS[1]}.lab.example.`, {
      method: 'DELETE',
      headers: { 'X-API-Key': site.backends.pdns.apiKey },
    });
    expect(zone.status).toBe(204);
    const client = new Client({ connection: site.temporal, namespace: site.namespace });
    await ensureSweepSchedule(client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
    await client.schedule.getHandle(runIds.reconcileSweepSchedule).trigger();
    await waitFor(async () => sample(await scrape(site.workerMetricsUrl), 'provisioning_sweep_runs_total', { outcome: 'completed' }) === 1, 60_000);
    text = await scrape(site.workerMetricsUrl);
    expect(sample(text, 'provisioning_sweep_tenants_total', { result: 'reconciled' })).toBe(3);
    expect(sample(text, 'provisioning_sweep_last_objects_corrected')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'provisioning_step_runs_total', { step: 'dns', operation: 'ensure', outcome: 'created' })).toBeGreaterThanOrEqual(1);
  });

  it('puts no tenant name, token or address into any label value', async () => {
    for (const text of [await scrape(site.apiMetricsUrl), await scrape(site.workerMetricsUrl)]) {
      const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((m) => m[1]!);
      for (const v of labelValues) {
        for (const t of TENANTS) expect(v).not.toContain(t);
        expect(v).not.toMatch(/127\.0\.0\.1|Bearer|dvt1\./);
      }
    }
  });

  it("answers the README's queries through Prometheus' HTTP API", async () => {
    // Step failure rate by step.
    const failures = await promWhen('sum by (step) (increase(provisioning_step_runs_total{outcome="failed"}[10m])) > 0', (v) => v.length > 0);
    expect(failures.map((r) => r.metric.step)).toEqual(['dns']);
    expect(Number(failures[0]!.value[1])).toBeGreaterThan(0);
    // Raw counts, as scraped: the create's and the workload's failed dns runs, one each, of three attempts each.
    const counts = await promWhen('sum by (step, outcome) (provisioning_step_runs_total{job="worker"})', (v) => v.some((r) => r.metric.outcome === 'created'));
    expect(counts.find((r) => r.metric.step === 'dns' && r.metric.outcome === 'failed')?.value[1]).toBe('2');
    const attempts = await promWhen('sum by (step) (provisioning_step_attempts_total{job="worker",outcome="failed"})', (v) => v.length > 0);
    expect(attempts.find((r) => r.metric.step === 'dns')?.value[1]).toBe('6');
    // Parked runs by kind, from the API.
    const parked = await promWhen('max by (kind) (provisioning_parked_runs{job="api"})', (v) => v.length === 6);
    expect(parked.every((r) => r.value[1] === '0')).toBe(true);
    // Create latency p95 (from the API's request histogram). A series' first sample shows no
    // increase, so one more create once Prometheus holds the creates' series.
    await promWhen('sum(http_request_duration_seconds_count{job="api",method="POST",route="/v1/tenants",status="201"})', (v) => v[0]?.value[1] === '2');
    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'mtd' } }), 201, site.logs);
    const p95 = await promWhen(
      'histogram_quantile(0.95, sum by (le) (rate(http_request_duration_seconds_bucket{job="api",method="POST",route="/v1/tenants"}[10m])))',
      (v) => v.length === 1 && Number(v[0]!.value[1]) > 0,
    );
    expect(Number(p95[0]!.value[1])).toBeLessThan(60);
    // Drift corrected by the last sweep.
    const drift = await promWhen('max(provisioning_sweep_last_objects_corrected)', (v) => Number(v[0]?.value[1] ?? 0) > 0);
    expect(Number(drift[0]!.value[1])).toBeGreaterThanOrEqual(1);
    // The alert rules are loaded (and evaluated) by this Prometheus.
    const rules = (await (await fetch(`${prom.url}/api/v1/rules`)).json()) as { data: { groups: Array<{ rules: Array<{ name: string; health: string }> }> } };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name)).toEqual(expect.arrayContaining(['ProvisioningRunParkedOverAnHour', 'ProvisioningStepFailing']));
  });
});

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(new URL('../../docs/observability/grafana-dashboard.json', import.meta.url), 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })));

  it('has panels for parked runs by kind, failed runs beside attempts, and the objects a reconcile found needing attention', () => {
    const panel = (re: RegExp) => exprs.filter((e) => re.test(e.expr)).map((e) => e.title);
    expect(panel(/provisioning_parked_runs\b/)).toEqual(['Parked runs by kind']);
    expect(panel(/provisioning_step_attempts_total/)).toEqual(['Failed step runs and attempts by step']);
    expect(panel(/provisioning_reconcile_objects_total\{[^}]*needs-restore\|unknown/)).toEqual(['Objects needing attention (needs-restore, unknown)']);
    expect(panel(/provisioning_reconcile_objects_total/)).toContain('Reconcile findings by result');
  });

  it('queries only metrics the service exports, in PromQL this Prometheus accepts', async () => {
    expect(exprs.length).toBeGreaterThan(15);
    const exported = (await scrape(site.apiMetricsUrl)) + (await scrape(site.workerMetricsUrl));
    for (const { title, expr } of exprs) {
      // Grafana's own variables, as it would fill them in.
      await expect(prom.query(expr.replaceAll('$__rate_interval', '1m').replaceAll('$__range', '10m')), title).resolves.toBeDefined();
      for (const name of expr.match(/\b(provisioning|http)_[a-z_]+/g) ?? []) {
        // Declared families (a histogram with no observation yet has no series). Temporal's own
        // series come from the Core runtime of a worker process (tested below).
        const family = name.replace(/_(bucket|count|sum)$/, '');
        expect(exported, `${title}: ${name}`).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
      }
    }
  });
});

describe('Temporal metrics', () => {
  it("a worker process serves the Core runtime's own metrics with the service's", async () => {
    // Port 0: the worker binds its metrics listener, then says where (at info).
    const child = site.spawnWorker({ WORKER_METRICS_ADDRESS: '127.0.0.1:0', LOG_LEVEL: 'info' });
    try {
      const metrics = await reportedAddress(child, WORKER_METRICS_LISTENING);
      let text = '';
      await waitFor(async () => {
        text = await (await fetch(metrics)).text();
        // The worker's own series (by task queue) appear once it polls.
        return /^temporal_\w+\{[^}]*task_queue="q-/m.test(text);
      }, 60_000);
      expect(text).toMatch(/^temporal_request_total\{/m);
      expect(text).toMatch(/^# TYPE provisioning_step_runs_total counter/m);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});

describe('the alert rules file', () => {
  it('passes promtool check rules', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', ALERT_RULES]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });
});
