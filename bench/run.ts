import { ensureActivity } from '../core/step-table.js';
import { Client, Connection } from '@temporalio/client';
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { loadConfig } from '../apps/config/env.js';
import { startLabBackends } from '../apps/lab/backends.js';
import { LATENCY_PROFILES } from '../apps/lab/simulators/latency-profile.js';
import { dataConverter } from '../temporal/data-converter.js';
import { startDevServer } from '../temporal/dev-server.js';
import { ensureNamespace } from '../temporal/namespace.js';
import { ensureSweepSchedule } from '../temporal/schedules.js';
import { type SweepResult } from '../contracts/tenant.js';
import { API_FLAGS, WORKER_HEAP_FLAGS, extraFlags, startListening, startService, type ServiceProcess } from './processes.js';
import { startFloor } from './floor.js';
import { stepTimes } from './step-times.js';
import { buildDirectWorker, startDirect, type Direct } from './direct.js';
import { buildFloorWorker, fillOf, startFairFloor, type Floor } from './fair-floor.js';
import { fillFullSite, FULL_SITE, FULL_SITE_DEVICES, runTimelines, sweepFullSite, sumBy, sweepModeExists, type SweepFigures } from './full-site.js';
import { openLoop } from './open-loop.js';
import { soak, SOAK, type SoakCycle } from './soak.js';
import { median, percentile, round } from './stats.js';
import { runIds } from '../contracts/ids.js';

/**
 * `npm run bench`: the figures users judge the service by, on this machine, against the lab with
 * zero-latency simulators. API and worker run as production does (compiled, separate processes).
 * Prints a table with the targets beside each figure and writes bench/results.json.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
/** The machine's load when the bench began: a figure taken on a busy host says so. */
const LOAD_AT_START = loadavg();
/** Creates timed per run: at least 100, so the p95 is a percentile and not the maximum. */
const CREATES = Number(process.env.BENCH_CREATES ?? 100);
/** A site has 62 tenant indexes: the creates run on a fresh site every this many (untimed switch). */
const CREATES_PER_SITE = 25;
/** `BENCH_ONLY=reads` (comma-separated: creates, fill, floor, reads, sweep, full-site, real-site-fill, soak) runs a part, to iterate on it. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'creates,fill,floor,reads,sweep,full-site,real-site-fill,soak').split(','));
/** The parts that share the 62-tenant site of the fill. */
const SITE_PARTS = ['creates', 'fill', 'floor', 'reads', 'sweep'].some((p) => ONLY.has(p));
/** Correcting sweeps timed per full site (the worst is the figure). */
const FULL_SITE_SWEEPS = Number(process.env.BENCH_FULL_SITE_SWEEPS ?? 2);
/** `BENCH_FULL_SITE_CONCURRENCIES=4,16`: one more correcting sweep at each, reported beside the figures. */
const FULL_SITE_CONCURRENCIES = (process.env.BENCH_FULL_SITE_CONCURRENCIES ?? '').split(',').filter(Boolean).map(Number);
/** Extra node flags for the API and worker processes, e.g. `BENCH_API_FLAGS=--cpu-prof` to profile. */
const EXTRA_API_FLAGS = extraFlags('BENCH_API_FLAGS');
const WORKER_FLAGS = [...WORKER_HEAP_FLAGS, ...extraFlags('BENCH_WORKER_FLAGS')];

interface Figure {
  name: string;
  value: number;
  unit: string;
  target: string;
  met: boolean;
  /** The smallest and largest of the runs. */
  spread?: string;
  /** The part of `BENCH_ONLY` that measures it, when not every site run does: no row when that part did not run. */
  part?: string;
}

function build(): void {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  cpSync(join(root, 'db/migrations'), join(root, 'dist/db/migrations'), { recursive: true });
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-workflow-bundle.ts', 'dist/workflow-bundle.js'], { cwd: root, stdio: 'ignore' });
}

async function freshDatabase(admin: postgres.Sql, name: string): Promise<string> {
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  return `postgres://postgres@127.0.0.1:5432/${name}`;
}

async function post(url: string, token: string, body: unknown): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const r = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return { status: r.status, ms: performance.now() - t0 };
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('api did not become ready');
}

/**
 * One whole site: backends, database, API and worker processes. With `workerMetrics`, each worker
 * started serves its metrics on a port of its own (`workerMetricsUrl`).
 */
async function startSite(
  temporalAddress: string,
  admin: postgres.Sql,
  run: number,
  opts: { env?: Record<string, string>; lab?: Parameters<typeof startLabBackends>[0]; workerMetrics?: boolean } = {},
) {
  const backends = await startLabBackends(opts.lab);
  const namespace = `bench-${run}`;
  const database = `tp_bench_${process.pid}_${run}`;
  const connection = await Connection.connect({ address: temporalAddress });
  await ensureNamespace(connection, namespace);
  const env: Record<string, string> = {
    ...backends.env,
    OPERATOR_TOKEN: 'bench-operator-token-0123456789',
    // Per bench process: two benches on one machine (one PostgreSQL) must not drop each other's registry.
    DATABASE_URL: await freshDatabase(admin, database),
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // The hourly isolation check's canary pair takes two tenant indexes (docs/production.md): on a
    // bench crossing the hour, two of the full site's 62 creates answered "no free tenant index".
    SITE_ISOLATION_CHECK_INTERVAL: 'off',
    WORKFLOW_BUNDLE: join(root, 'dist/workflow-bundle.js'),
    ...opts.env,
  };
  if (process.env.BENCH_DUMP_ENV) writeFileSync(process.env.BENCH_DUMP_ENV, JSON.stringify(env));
  const { service: api, port: apiPort } = await startListening(
    join(root, 'dist/apps/api/main.js'),
    (port) => ({ ...env, LISTEN_ADDRESS: `127.0.0.1:${port}` }),
    [...API_FLAGS, ...EXTRA_API_FLAGS],
    (port) => waitReady(`http://127.0.0.1:${port}`),
  );
  env.LISTEN_ADDRESS = `127.0.0.1:${apiPort}`;
  let workerMetricsUrl: string | undefined;
  const startWorker = async (extra: Record<string, string>): Promise<ServiceProcess> => {
    const entry = join(root, 'dist/apps/worker/main.js');
    if (!opts.workerMetrics) return startService(entry, { ...env, ...extra }, WORKER_FLAGS);
    const started = await startListening(
      entry,
      (port) => ({ ...env, ...extra, WORKER_METRICS_ADDRESS: `127.0.0.1:${port}` }),
      WORKER_FLAGS,
      async () => {},
    );
    workerMetricsUrl = `http://127.0.0.1:${started.port}/metrics`;
    return started.service;
  };
  let worker = await startWorker({});
  const url = `http://127.0.0.1:${apiPort}`;
  const client = new Client({ connection, namespace, dataConverter: dataConverter(loadConfig(env).codecKey) });
  return {
    url,
    env,
    token: env.OPERATOR_TOKEN!,
    api,
    get worker() {
      return worker;
    },
    get workerMetricsUrl() {
      return workerMetricsUrl!;
    },
    backends,
    client,
    /** A new worker process with these settings besides the site's (it updates the sweep's Schedule as it starts). */
    restartWorker: async (extra: Record<string, string>) => {
      await worker.stop();
      worker = await startWorker(extra);
    },
    stop: async () => {
      await Promise.all([api.stop(), worker.stop()]);
      await connection.close();
      await backends.stop();
      await admin.unsafe(`drop database if exists "${database}" with (force)`);
    },
  };
}

type Site = Awaited<ReturnType<typeof startSite>>;

const DIRECT_PROCESS = 'direct steps process';

/** The direct steps' process, compiled once a bench (bench/direct.ts). */
let directEntry: Promise<string> | undefined;
async function directFor(site: Site): Promise<Direct> {
  return startDirect(await (directEntry ??= buildDirectWorker(root)), site.env);
}

/** Per create, ms: the run from its first event to its last, its activities and its workflow tasks (scheduled to closed). */
function perRun(timelines: Array<Record<'create' | 'fair', Awaited<ReturnType<typeof runTimelines>>>>): Record<string, number> {
  const sum = (who: 'create' | 'fair', k: 'wall' | 'activityExec' | 'activityWait' | 'workflowTaskExec' | 'workflowTaskWait') =>
    (timelines.reduce((a, t) => a + t[who][k], 0) * 1000) /
    Math.max(
      1,
      timelines.reduce((a, t) => a + t[who].runs, 0),
    );
  const of = (who: 'create' | 'fair') => ({
    [`${who}RunMs`]: sum(who, 'wall'),
    [`${who}ActivitiesMs`]: sum(who, 'activityExec') + sum(who, 'activityWait'),
    [`${who}WorkflowTasksMs`]: sum(who, 'workflowTaskExec') + sum(who, 'workflowTaskWait'),
  });
  return timelines.length ? { ...of('create'), ...of('fair') } : {};
}

async function benchCreates(newSite: (batch: number) => Promise<Site>, run: number, floor: Awaited<ReturnType<typeof startFloor>>, fair?: Floors) {
  const viaApi: number[] = [];
  const direct: number[] = [];
  const floors: number[] = [];
  const fairs: number[] = [];
  const timelines: Array<Record<'create' | 'fair', Awaited<ReturnType<typeof runTimelines>>>> = [];
  const bares: number[] = [];
  const shares: number[] = [];
  let apiPeakMb = 0;
  for (let batch = 0; batch * CREATES_PER_SITE < CREATES; batch++) {
    const site = await newSite(batch);
    const direct0 = await directFor(site);
    try {
      // Interleaved, so all three see the same machine state: via the API, direct, the floor.
      // One untimed create first on each site warms the worker's caches.
      const n = Math.min(CREATES_PER_SITE, CREATES - batch * CREATES_PER_SITE);
      for (let i = -1; i < n; i++) {
        const r = await post(`${site.url}/v1/tenants`, site.token, { name: `a${run}x${batch}n${i + 1}` });
        if (r.status !== 201) throw new Error(`create answered ${r.status}`);
        const d = await direct0.create(`d${run}x${batch}n${i + 1}`);
        const f = await floor.create(d.steps);
        const fairMs = fair ? await fair.service.create(`c${run}x${batch}n${i + 1}`) : NaN;
        const bareMs = fair ? await fair.bare.create(`c${run}x${batch}n${i + 1}`) : NaN;
        if (i < 0) continue;
        fairs.push(fairMs);
        bares.push(bareMs);
        viaApi.push(r.ms);
        direct.push(d.ms);
        floors.push(f);
        // Temporal's share per step: what the create costs beyond the same steps called directly.
        shares.push((r.ms - d.ms) / d.steps);
      }
      if (fair) {
        // Where the create's time goes beside the fair floor's, from their runs' histories.
        const names = Array.from({ length: n }, (_, i) => `${run}x${batch}n${i + 1}`);
        timelines.push({
          create: await runTimelines(
            site.client,
            names.map((x) => runIds.tenantCreate(`a${x}`)),
          ),
          fair: await runTimelines(
            fair.service.client,
            names.map((x) => fair.service.runOf(`c${x}`)),
          ),
        });
      }
      if (process.env.BENCH_HISTORY) {
        const h = await site.client.workflow.getHandle(runIds.tenantCreate(`a${run}x${batch}n${n}`)).fetchHistory();
        const t0 = Number(h.events![0]!.eventTime!.seconds) * 1000 + h.events![0]!.eventTime!.nanos! / 1e6;
        for (const e of h.events!)
          process.stderr.write(`${(Number(e.eventTime!.seconds) * 1000 + e.eventTime!.nanos! / 1e6 - t0).toFixed(1)} ${e.eventType}\n`);
        if (fair) {
          // The same create's events on the fair floor, by type beside the service's: the floor's claim is the same shape.
          const f = await fair.service.client.workflow.getHandle(fair.service.runOf(`c${run}x${batch}n${n}`)).fetchHistory();
          const byType = (events: typeof h.events) => {
            const out: Record<string, number> = {};
            for (const e of events ?? []) out[String(e.eventType)] = (out[String(e.eventType)] ?? 0) + 1;
            return out;
          };
          process.stderr.write(
            `events by type, service: ${JSON.stringify(byType(h.events))}\nevents by type, fair floor: ${JSON.stringify(byType(f.events))}\n`,
          );
        }
      }
    } finally {
      await direct0.close();
      apiPeakMb = Math.max(apiPeakMb, site.api.peakRssMb());
      await site.stop();
    }
  }
  return {
    p50: median(viaApi),
    p95: percentile(viaApi, 95),
    samples: viaApi.length,
    directP50: median(direct),
    floorP50: median(floors),
    fairFloorP50: median(fairs),
    ...perRun(timelines),
    bareFloorP50: median(bares),
    shareP50: median(shares),
    apiPeakMb,
  };
}

/** The tenants the service's fill creates (bench/fair-floor.ts fillOf names them). */
const fillNames = Array.from({ length: 62 }, (_, i) => `f${String(i).padStart(3, '0')}`);

async function benchFill(site: Site) {
  const known = { [site.api.child.pid!]: 'api', [site.worker.child.pid!]: 'worker', [process.pid]: 'lab simulators (bench process)' };
  const fill = await fillOf(
    async (name) => {
      const r = await post(`${site.url}/v1/tenants`, site.token, { name });
      if (r.status !== 201) throw new Error(`create ${name} answered ${r.status}`);
    },
    'f',
    known,
  );
  process.stderr.write(`fill CPU seconds (${fill.seconds.toFixed(1)} s on ${cpus().length} cores): ${JSON.stringify(fill.cpu)}\n`);
  process.stderr.write(`fill CPU seconds by thread: ${JSON.stringify(fill.threads)}\n`);
  if (process.env.BENCH_TIMELINES)
    process.stderr.write(
      `fill runs, summed: ${JSON.stringify(
        await runTimelines(
          site.client,
          fillNames.map((n) => runIds.tenantCreate(n)),
        ),
      )}\n`,
    );
  return fill;
}

async function benchSweep(site: Site) {
  await ensureSweepSchedule(site.client, { taskQueue: 'provisioning', intervalMs: 3_600_000 });
  const earlier = new Set<string>();
  for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) earlier.add(w.runId);
  await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).trigger();
  for (;;) {
    for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) {
      if (!earlier.has(w.runId)) {
        const t0 = w.startTime.getTime();
        const result = (await site.client.workflow.getHandle(w.workflowId, w.runId).result()) as SweepResult;
        const closed = (await site.client.workflow.getHandle(w.workflowId, w.runId).describe()).closeTime!.getTime();
        return { seconds: (closed - t0) / 1000, tenants: result.tenants, reconciled: result.reconciled.length, failed: result.failed.length };
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function benchReads(site: Site, databaseUrl: string) {
  // Started as the API is: the same node flags, its own process.
  const { service: bare, port: barePort } = await startListening(
    join(root, 'bench/bare-read.ts'),
    (port) => ({ BARE_PORT: String(port), DATABASE_URL: databaseUrl }),
    API_FLAGS,
    async () => {},
  );
  const run = (url: string, extra: Partial<autocannon.Options> = {}) =>
    autocannon({ url, connections: 16, duration: 5, headers: { authorization: `Bearer ${site.token}` }, ...extra });
  const apiUrl = `${site.url}/v1/tenants/f000`;
  const bareUrl = `http://127.0.0.1:${barePort}/bare/f000`;
  // Warm both (JIT, prepared statements) before anything is measured.
  await run(apiUrl, { duration: 2 });
  await run(bareUrl, { duration: 2 });
  // Alternating rounds, so both routes see the same machine (it is shared, and its speed drifts).
  const apiRps: number[] = [];
  const bareRps: number[] = [];
  let non2xx = 0;
  for (let round = 0; round < 3; round++) {
    const a = await run(apiUrl, { duration: 4 });
    const b = await run(bareUrl, { duration: 4 });
    apiRps.push(a.requests.average);
    bareRps.push(b.requests.average);
    non2xx += a.non2xx + b.non2xx;
  }
  // The p99 at 1,000 req/s, open loop (bench/open-loop.ts): sent on schedule whatever the answers.
  const paced = await openLoop(apiUrl, site.token, { rate: 1000, seconds: 5 });
  const pacedBare = await openLoop(bareUrl, site.token, { rate: 1000, seconds: 5 });
  await bare.stop();
  // Beside the one always-cached tenant: every one of the 62 in turn (autocannon cycles the list).
  const mixed = await autocannon({
    url: site.url,
    connections: 16,
    duration: 4,
    headers: { authorization: `Bearer ${site.token}` },
    requests: Array.from({ length: 62 }, (_, i) => ({ method: 'GET' as const, path: `/v1/tenants/f${String(i).padStart(3, '0')}` })),
  });
  // And tenants just written: each read right after a reconcile of the same tenant changed its row.
  const justWritten: number[] = [];
  for (let i = 0; i < 30; i++) {
    const name = `f${String(i % 62).padStart(3, '0')}`;
    const w = await post(`${site.url}/v1/tenants/${name}/reconcile`, site.token, undefined);
    if (w.status !== 200) throw new Error(`reconcile answered ${w.status}`);
    const t0 = performance.now();
    const r = await fetch(`${site.url}/v1/tenants/${name}`, { headers: { authorization: `Bearer ${site.token}` } });
    await r.text();
    justWritten.push(performance.now() - t0);
    if (r.status !== 200) non2xx++;
  }
  if (non2xx || mixed.non2xx || paced.non2xx || paced.errors || pacedBare.errors) throw new Error('reads answered errors');
  return {
    rps: median(apiRps),
    bareRps: median(bareRps),
    mixedRps: mixed.requests.average,
    justWrittenP50: median(justWritten),
    justWrittenMax: Math.max(...justWritten),
    p99At1000: paced.p99,
    pacedRate: paced.requests / paced.seconds,
    bareP99At1000: pacedBare.p99,
  };
}

/** The site settings a sweep runs under: the bench's environment passes them through to the worker. */
const sweepSettings = () => ({
  concurrency: Number(process.env.SITE_SWEEP_CONCURRENCY ?? 8),
  callsPerSecond: Number(process.env.SITE_BACKEND_CALLS_PER_SECOND ?? 100),
});

interface FullSiteRun {
  fillSeconds: number;
  fillCalls: number;
  fillErrors: number;
  fillRepeats: number;
  fillCpu: Record<string, number>;
  /** Peak RSS during the fill (the sweeps' own are in each sweep). */
  fillApiPeakMb: number;
  fillWorkerPeakMb: number;
  sweeps: SweepFigures[];
}

/**
 * The full site (bench/full-site.ts): its own lab site, with the worker's metrics on (the backend
 * call counters) and a device network large enough for 248 addresses, filled through the API,
 * then swept `FULL_SITE_SWEEPS` times correcting and, where the site setting exists, in plan mode.
 */
async function benchFullSite(temporalAddress: string, admin: postgres.Sql, run: number): Promise<FullSiteRun> {
  const site = await startSite(temporalAddress, admin, run + 300, {
    // A schedule of a day: its own tick never falls inside the bench (every sweep here is triggered).
    env: { SITE_RECONCILE_INTERVAL: '24h' },
    lab: { devices: FULL_SITE_DEVICES },
    workerMetrics: true,
  });
  try {
    const fill = await benchStep('full-site fill', () => fillFullSite(site));
    const fillApiPeakMb = site.api.peakRssMb();
    const fillWorkerPeakMb = site.worker.peakRssMb();
    process.stderr.write(
      `full-site fill: ${fill.seconds.toFixed(1)} s, ${fill.calls} calls, ${fill.errors} errors, ${fill.repeats} repeated; CPU ${JSON.stringify(fill.cpu)}\n`,
    );
    const sweeps: SweepFigures[] = [];
    for (let i = 0; i < FULL_SITE_SWEEPS; i++) sweeps.push(report(await sweepFullSite(site, site.workerMetricsUrl, { ...sweepSettings(), mode: 'correct' })));
    if (sweepModeExists(root)) {
      await restartWorker(site, { SITE_SWEEP_MODE: 'plan' }, (args) => JSON.stringify(args).includes('plan'));
      for (let i = 0; i < FULL_SITE_SWEEPS; i++) sweeps.push(report(await sweepFullSite(site, site.workerMetricsUrl, { ...sweepSettings(), mode: 'plan' })));
    }
    // Other concurrencies, to see what bounds the sweep: one correcting sweep each, not judged.
    for (const c of FULL_SITE_CONCURRENCIES) {
      await restartWorker(site, { SITE_SWEEP_CONCURRENCY: String(c) }, (args) => (args[0] as { concurrency?: number } | undefined)?.concurrency === c);
      sweeps.push(report(await sweepFullSite(site, site.workerMetricsUrl, { ...sweepSettings(), concurrency: c, mode: 'correct (other concurrency)' })));
    }
    return {
      fillSeconds: fill.seconds,
      fillCalls: fill.calls,
      fillErrors: fill.errors,
      fillRepeats: fill.repeats,
      fillCpu: fill.cpu,
      fillApiPeakMb,
      fillWorkerPeakMb,
      sweeps,
    };
  } finally {
    await site.stop();
  }
}

/** A new worker with these settings, once it has put them into the sweep's Schedule. */
async function restartWorker(site: Site, env: Record<string, string>, applied: (args: readonly unknown[]) => boolean): Promise<void> {
  await site.restartWorker(env);
  await waitFor(async () => {
    const d = await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).describe();
    return d.action.type === 'startWorkflow' && applied(d.action.args ?? []);
  });
}

async function benchStep<T>(what: string, fn: () => Promise<T>): Promise<T> {
  process.stderr.write(`${what}...\n`);
  return fn();
}

async function waitFor(ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if (await ok()) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
}

function report(s: SweepFigures): SweepFigures {
  const lines = [
    `full-site sweep (${s.mode}, concurrency ${s.concurrency}, ${s.callsPerSecond} calls/s): ${s.seconds.toFixed(2)} s, ${s.reconciled}/${s.tenants} reconciled, ${s.failed} failed, ${s.skipped} skipped; pacing bound ${s.paceBoundSeconds.toFixed(2)} s (${s.paceBoundBackend})`,
    `  calls by backend: ${JSON.stringify(s.callsByBackend)}`,
    `  calls by activity: ${JSON.stringify(s.callsByActivity)}`,
    `  activity seconds (runs): ${Object.entries(s.activitySeconds)
      .map(([k, v]) => `${k} ${v.seconds} (${v.runs})`)
      .join(', ')}`,
    ...(s.timelines ? [`  tenants' runs, summed (s): ${JSON.stringify(s.timelines)}`] : []),
    `  broker (MQTT): ${s.broker.requests} requests, commands ${JSON.stringify(s.broker.commands)}`,
    `  objects found: ${JSON.stringify(s.found)}`,
    `  CPU seconds: ${JSON.stringify(s.cpu)}; peak RSS worker ${s.workerPeakMb.toFixed(1)} MB, API ${s.apiPeakMb.toFixed(1)} MB; worker at its end ${JSON.stringify(s.workerMemory)} MB`,
  ];
  process.stderr.write(lines.join('\n') + '\n');
  return s;
}

/**
 * The full site's figures over its runs: the sweeps' ceilings judged on the worst sweep of any run
 * (issue 14's rule), the calls and CPU of the worst correcting sweep, peaks over fill and sweeps.
 */
function fullSiteFigures(runs: FullSiteRun[]): Figure[] {
  const { concurrency, callsPerSecond } = sweepSettings();
  const correct = runs.flatMap((r) => r.sweeps.filter((s) => s.mode === 'correct'));
  const plan = runs.flatMap((r) => r.sweeps.filter((s) => s.mode === 'plan'));
  const worstOf = (sweeps: SweepFigures[]) => sweeps.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  const spreadOf = (xs: number[], digits = 2) => `${round(Math.min(...xs), digits)}–${round(Math.max(...xs), digits)}`;
  const w = worstOf(correct);
  const httpCalls = Object.values(w.callsByBackend).reduce((a, b) => a + b, 0);
  const backendCpu = Object.entries(w.cpu)
    .filter(([k]) => k !== 'worker' && k !== 'api')
    .reduce((a, [, v]) => a + v, 0);
  const fills = runs.map((r) => r.fillSeconds);
  const settings = `concurrency ${concurrency}, ${callsPerSecond} calls/s per backend`;
  // A table, one figure a row: the formatter would spread each row over seven lines.
  // prettier-ignore
  const figures: Figure[] = [
    { name: `full site: fill through the API (${FULL_SITE.tenants} tenants × 36 objects, worst run)`, value: round(Math.max(...fills), 1), unit: 's', target: '(reported)', met: true, spread: spreadOf(fills, 1) },
    { name: 'full site: fill errors (all runs)', value: runs.reduce((a, r) => a + r.fillErrors, 0), unit: '', target: '0', met: runs.every((r) => r.fillErrors === 0) },
    { name: `full site: correcting sweep (worst of ${correct.length}; ${settings})`, value: round(w.seconds, 2), unit: 's', target: '≤ 30 s', met: w.seconds <= 30, spread: spreadOf(correct.map((s) => s.seconds)) },
    { name: 'full site: sweep tenants reconciled (least sweep)', value: Math.min(...correct.map((s) => s.reconciled)), unit: '', target: String(FULL_SITE.tenants), met: correct.every((s) => s.reconciled === FULL_SITE.tenants) },
    { name: 'full site: sweep tenants failed (all sweeps)', value: correct.reduce((a, s) => a + s.failed, 0), unit: '', target: '0', met: correct.every((s) => s.failed === 0) },
    { name: 'full site: HTTP backend calls, worst sweep', value: httpCalls, unit: 'calls', target: '(reported)', met: true },
    { name: `full site: pacing bound (${w.paceBoundBackend || 'none'} calls − 1 s burst) / rate`, value: round(w.paceBoundSeconds, 2), unit: 's', target: '≤ 30 s to be possible', met: w.paceBoundSeconds <= 30 },
    { name: 'full site: broker (MQTT) requests, worst sweep', value: w.broker.requests, unit: 'req', target: '(reported; not paced)', met: true },
    { name: 'full site: worker CPU during the worst sweep', value: w.cpu.worker ?? 0, unit: 's', target: '(reported)', met: true },
    { name: 'full site: backends + Temporal + PostgreSQL CPU, same sweep', value: round(backendCpu, 2), unit: 's', target: '(reported)', met: true },
    { name: 'full site: worker peak RSS (fill and sweeps)', value: round(Math.max(...runs.map((r) => Math.max(r.fillWorkerPeakMb, ...r.sweeps.map((s) => s.workerPeakMb))))), unit: 'MB', target: '(reported)', met: true },
    { name: 'full site: worker peak RSS during a sweep', value: round(Math.max(...correct.map((s) => s.workerPeakMb))), unit: 'MB', target: '≤ 300 MB', met: Math.max(...correct.map((s) => s.workerPeakMb)) <= 300 },
    { name: 'full site: API peak RSS (fill and sweeps)', value: round(Math.max(...runs.map((r) => Math.max(r.fillApiPeakMb, ...r.sweeps.map((s) => s.apiPeakMb))))), unit: 'MB', target: '≤ 150 MB', met: Math.max(...runs.map((r) => Math.max(r.fillApiPeakMb, ...r.sweeps.map((s) => s.apiPeakMb)))) <= 150 },
  ];
  if (plan.length) {
    const p = worstOf(plan);
    figures.push({
      name: `full site: plan sweep (worst of ${plan.length}; ${settings})`,
      value: round(p.seconds, 2),
      unit: 's',
      target: '≤ 20 s',
      met: p.seconds <= 20,
      spread: spreadOf(plan.map((s) => s.seconds)),
    });
    figures.push({
      name: 'full site: plan sweep tenants planned, failed',
      value: Math.min(...plan.map((s) => s.reconciled)),
      unit: '',
      target: `${FULL_SITE.tenants}, 0`,
      met: plan.every((s) => s.reconciled === FULL_SITE.tenants && s.failed === 0),
    });
    figures.push({
      name: 'full site: HTTP backend calls, worst plan sweep',
      value: Object.values(p.callsByBackend).reduce((a, b) => a + b, 0),
      unit: 'calls',
      target: '(reported)',
      met: true,
    });
  } else {
    figures.push({ name: 'full site: plan sweep: not measured yet (no SITE_SWEEP_MODE)', value: NaN, unit: 's', target: '≤ 20 s', met: false });
  }
  return figures;
}

/** The checkout's commit, `-dirty` when it has changes: which code the figures are of. */
function gitCommit(): string {
  const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
  return dirty ? `${head}-dirty` : head;
}

/** What every run measured, as it comes in. */
interface Measured {
  runs: Record<string, number>[];
  fillCpu: Record<string, number>[];
  fullSite: FullSiteRun[];
  realSiteFill: RealSiteFill[];
  floors: FloorFills[];
  soaks: SoakCycle[][];
}

interface RealSiteFill {
  seconds: number;
  errors: number;
  /** SDN applies the fill ran (group commit: fewer than tenants). */
  applies: number;
  cpu: Record<string, number>;
  /** Where a create's time went: mean ms of the run and of each step (stepTimes). */
  profile: Awaited<ReturnType<typeof stepTimes>>;
  /** Backend calls per create, by step activity and backend (provisioning_backend_calls_by_activity_total). */
  callsPerCreate: Record<string, number>;
}

/**
 * A fill of 62 tenants by 8 callers on a site whose simulators take the real-site profile
 * (`LAB_LATENCY=real-site`: a 5 s SDN apply, seconds per clone, tens of ms per API call).
 */
async function benchRealSiteFill(temporalAddress: string, admin: postgres.Sql, run: number): Promise<RealSiteFill> {
  // A namespace of its own: the full-site bench's (run + 300) holds that site's Schedules, sealed with its key.
  const site = await startSite(temporalAddress, admin, run + 500, { lab: { latency: 'real-site' }, workerMetrics: true });
  try {
    const applies = () => [...site.backends.proxmox.state.tasks.values()].filter((t) => t.type === 'reloadnetworkall').length;
    const before = applies();
    const fill = await benchFill(site);
    const profile = await stepTimes(site.client, fillNames.map(runIds.tenantCreate));
    // Each backend call of a step is one request's latency on a real site: the calls a create makes, per step.
    const metrics = await (await fetch(site.workerMetricsUrl)).text();
    const callsPerCreate = Object.fromEntries(
      Object.entries(sumBy(metrics, 'provisioning_backend_calls_by_activity_total', ['activity', 'backend'])).map(([k, v]) => [
        k,
        round(v / fillNames.length, 1),
      ]),
    );
    process.stderr.write(`real-site fill, mean ms per create and per step (scheduled to closed): ${JSON.stringify(profile)}\n`);
    process.stderr.write(`real-site fill, backend calls per create by step: ${JSON.stringify(callsPerCreate)}\n`);
    return { ...fill, applies: applies() - before, profile, callsPerCreate };
  } finally {
    await site.stop();
  }
}

/**
 * Issue 32 item 3: the fair floor (the create's exact shape on the service's worker, empty
 * activities) and the bare one, one at a time and as fills, beside the service's fill and the
 * direct steps' fill of the same run, with CPU per create.
 */
function floorFigures(fills: FloorFills[], runs: Record<string, number>[]): Figure[] {
  const perCreate = (cpu: Record<string, number> | undefined, who: string) => round(((cpu?.[who] ?? NaN) / 62) * 1000);
  const w = <T>(pick: (f: FloorFills) => T, by: (x: T) => number) => fills.map(pick).reduce((a, b) => (by(b) > by(a) ? b : a));
  const ratio = (f: FloorFills) => (f.service?.seconds ?? NaN) / (f.fair.seconds + f.direct.seconds);
  // Issue 48 item 1: the worker's CPU per create against what Temporal's shape (the fair floor's
  // worker) and the steps alone (the direct process) cost, each measured in a process of its own.
  const workerOver = (f: FloorFills) => (f.service?.cpu.worker ?? NaN) / ((f.fair.cpu.worker ?? NaN) + (f.direct.cpu[DIRECT_PROCESS] ?? NaN));
  const worstWorkerOver = Math.max(...fills.map(workerOver));
  const worstRatio = Math.max(...fills.map(ratio));
  const last = fills.at(-1)!;
  const figures: Figure[] = [];
  if (runs.some((r) => Number.isFinite(r.fairFloorP50))) {
    const { m, worst, spread } = overRuns(runs);
    // prettier-ignore
    figures.push(
      { name: "fair floor: the create's shape on the service's worker, p50", value: round(m('fairFloorP50')), unit: 'ms', target: '(reference)', met: true, spread: spread('fairFloorP50') },
      { name: 'bare floor: the same counts, SDK defaults, p50', value: round(m('bareFloorP50')), unit: 'ms', target: '(reference)', met: true, spread: spread('bareFloorP50') },
      { name: 'create − direct − fair floor, p50 (worst run)', value: round(worst('overFairFloor'), 1), unit: 'ms', target: '≤ 30 ms', met: worst('overFairFloor') <= 30, spread: spread('overFairFloor') },
    );
  }
  if (runs.some((r) => Number.isFinite(r.createRunMs))) {
    const { m } = overRuns(runs);
    const beside = (k: string) => `(reported; fair floor ${round(m(`fair${k}`), 1)} ms)`;
    // prettier-ignore
    figures.push(
      { name: "where it goes: the create's run, first event to last, mean", value: round(m('createRunMs'), 1), unit: 'ms', target: beside('RunMs'), met: true },
      { name: 'where it goes: its activities, scheduled → closed, summed', value: round(m('createActivitiesMs'), 1), unit: 'ms', target: beside('ActivitiesMs'), met: true },
      { name: 'where it goes: its workflow tasks (local activities in them), summed', value: round(m('createWorkflowTasksMs'), 1), unit: 'ms', target: beside('WorkflowTasksMs'), met: true },
    );
  }
  // prettier-ignore
  figures.push(
    { name: 'zero-latency fill / (fair floor fill + direct fill) (worst run)', value: round(worstRatio, 2), unit: '×', target: '≤ 1.25', met: worstRatio <= 1.25, spread: fills.map((f) => round(ratio(f), 2)).join(', ') },
    { name: 'fair floor fill: 62 creates, 8 callers (worst run)', value: round(w((f) => f.fair, (x) => x.seconds).seconds, 2), unit: 's', target: '(reference)', met: true },
    { name: 'bare floor fill: 62 creates, 8 callers (worst run)', value: round(w((f) => f.bare, (x) => x.seconds).seconds, 2), unit: 's', target: '(reference)', met: true },
    { name: 'direct steps fill: 62 creates, 8 callers (worst run)', value: round(w((f) => f.direct, (x) => x.seconds).seconds, 2), unit: 's', target: '(reference)', met: true },
    { name: 'service fill: worker CPU per create (last run)', value: perCreate(last.service?.cpu, 'worker'), unit: 'ms', target: '(reported)', met: true },
    { name: 'service fill: Temporal server CPU per create (last run)', value: perCreate(last.service?.cpu, 'temporal dev server'), unit: 'ms', target: '(reported)', met: true },
    { name: 'fair floor fill: worker CPU per create (last run)', value: perCreate(last.fair.cpu, 'worker'), unit: 'ms', target: '(reported)', met: true },
    { name: 'fair floor fill: Temporal server CPU per create (last run)', value: perCreate(last.fair.cpu, 'temporal dev server'), unit: 'ms', target: '(reported)', met: true },
    { name: 'bare floor fill: worker CPU per create (last run)', value: perCreate(last.bare.cpu, 'worker'), unit: 'ms', target: '(reported)', met: true },
    { name: 'bare floor fill: Temporal server CPU per create (last run)', value: perCreate(last.bare.cpu, 'temporal dev server'), unit: 'ms', target: '(reported)', met: true },
    { name: 'direct steps fill: steps process CPU per create (last run)', value: perCreate(last.direct.cpu, DIRECT_PROCESS), unit: 'ms', target: '(reference)', met: true },
    { name: 'service worker CPU / (fair floor worker + direct steps process), per create (worst run)', value: round(worstWorkerOver, 2), unit: '×', target: '≤ 1.2', met: worstWorkerOver <= 1.2, spread: fills.map((f) => round(workerOver(f), 2)).join(', ') },
  );
  return figures;
}

/** The soak (bench/soak.ts) on a zero-latency site of its own. */
async function benchSoak(temporalAddress: string, admin: postgres.Sql, run: number): Promise<SoakCycle[]> {
  const site = await startSite(temporalAddress, admin, run + 600, { workerMetrics: true });
  try {
    return await soak(site, run);
  } finally {
    await site.stop();
  }
}

function soakFigures(soaks: SoakCycle[][]): Figure[] {
  // After the first cycle, each cycle's largest resident set against the first's (worst run).
  const growth = Math.max(...soaks.map((cycles) => Math.max(...cycles.slice(1).map((c) => c.workerMaxRssMb / cycles[0]!.workerMaxRssMb))));
  const peak = Math.max(...soaks.flat().map((c) => c.workerMaxRssMb));
  // prettier-ignore
  return [
    { name: `soak: worker RSS of cycles 2–${SOAK.cycles} / cycle 1 (${SOAK.tenants} creates + deletes a cycle; worst run)`, value: round(growth, 2), unit: '×', target: '≤ 1.10', met: growth <= 1.1, spread: soaks.map((cycles) => cycles.map((c) => round(c.workerMaxRssMb)).join('/')).join(', ') + ' MB' },
    { name: 'soak: worker peak RSS', value: round(peak), unit: 'MB', target: '≤ 300 MB', met: peak <= 300 },
    { name: 'soak: errors (all runs)', value: soaks.flat().reduce((a, c) => a + c.errors, 0), unit: '', target: '0', met: soaks.flat().every((c) => c.errors === 0) },
  ];
}

/**
 * What a real-site fill cannot beat (issue 48 item 3): 62 tenants by 8 callers are 8 rounds, and a
 * round is at least one SDN apply plus the create's other steps (the run's mean less its network
 * step, from the fill's own histories), since a caller's next create stages its network only after
 * its last create's other steps.
 */
function realSiteBound(fill: RealSiteFill): { seconds: number; text: string } {
  const rounds = Math.ceil(62 / 8);
  const applySeconds = (LATENCY_PROFILES['real-site'].proxmoxTasks.srvreload ?? 0) / 1000;
  const otherSeconds = (fill.profile.run - (fill.profile.steps[ensureActivity('network')] ?? 0)) / 1000;
  const seconds = rounds * (applySeconds + otherSeconds);
  return { seconds, text: `${rounds} rounds × (${applySeconds} s apply + ${round(otherSeconds, 2)} s other steps) = ${round(seconds, 1)} s` };
}

function realSiteFigures(fills: RealSiteFill[]): Figure[] {
  const worst = fills.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  const perCreate = (worst.cpu.worker ?? 0) / 62;
  const bound = realSiteBound(worst);
  // prettier-ignore
  return [
    { name: 'real-site fill: 62 tenants, 8 callers, 5 s SDN apply (worst run)', value: round(worst.seconds, 1), unit: 's', target: `≤ 60 s; bound ${bound.text}`, met: worst.seconds <= 60, spread: `${round(Math.min(...fills.map((f) => f.seconds)), 1)}–${round(worst.seconds, 1)}` },
    { name: 'real-site fill: errors (all runs)', value: fills.reduce((a, f) => a + f.errors, 0), unit: '', target: '0', met: fills.every((f) => f.errors === 0) },
    { name: 'real-site fill: SDN applies for 62 tenants (worst run)', value: worst.applies, unit: '', target: '(reported; one per tenant serialized)', met: true },
    { name: 'real-site fill: worker CPU per create (worst run)', value: round(perCreate * 1000), unit: 'ms', target: '(reported)', met: true },
  ];
}

async function main(): Promise<void> {
  build();
  const admin = postgres('postgres://postgres@127.0.0.1:5432/postgres', { max: 1, onnotice: () => {} });
  const temporal = await startDevServer({ projectRoot: root });
  const floor = await startFloor(temporal.address, 'default');
  const measured: Measured = { runs: [], fillCpu: [], fullSite: [], realSiteFill: [], floors: [], soaks: [] };
  try {
    for (let run = 0; run < REPEATS; run++) {
      if (ONLY.has('full-site')) measured.fullSite.push(await benchFullSite(temporal.address, admin, run));
      if (SITE_PARTS) await benchSiteRun(temporal.address, admin, run, floor, measured);
      if (ONLY.has('real-site-fill')) measured.realSiteFill.push(await benchRealSiteFill(temporal.address, admin, run));
      if (ONLY.has('soak')) measured.soaks.push(await benchSoak(temporal.address, admin, run));
      process.stderr.write(`run ${run + 1}/${REPEATS} done\n`);
    }
  } finally {
    await floor.stop();
    await temporal.stop();
    await admin.end();
  }
  const figures: Figure[] = !SITE_PARTS ? [] : siteFigures(measured.runs);
  if (measured.fullSite.length) figures.push(...fullSiteFigures(measured.fullSite));
  if (measured.floors.length) figures.push(...floorFigures(measured.floors, measured.runs));
  if (measured.realSiteFill.length) figures.push(...realSiteFigures(measured.realSiteFill));
  if (measured.soaks.length) figures.push(...soakFigures(measured.soaks));
  writeResults(figures, measured);
}

/** One run of the site parts: creates on one site, then fill, reads and sweep on a second. */
async function benchSiteRun(
  temporalAddress: string,
  admin: postgres.Sql,
  run: number,
  floor: Awaited<ReturnType<typeof startFloor>>,
  measured: Measured,
): Promise<void> {
  const site = await startSite(temporalAddress, admin, run);
  const floors = ONLY.has('floor') ? await startFloors(site) : undefined;
  try {
    const skipped = { p50: NaN, p95: NaN, samples: 0, directP50: NaN, floorP50: NaN, fairFloorP50: NaN, bareFloorP50: NaN, shareP50: NaN, apiPeakMb: 0 };
    const creates = ONLY.has('creates')
      ? await benchCreates((batch) => (batch === 0 ? Promise.resolve(site) : startSite(temporalAddress, admin, run + 200 + 10 * batch)), run, floor, floors)
      : skipped;
    const apiPeakCreates = creates.apiPeakMb;
    // Fill needs an empty site: the latency runs used up indexes.
    if (!ONLY.has('creates')) await site.stop();
    const site2 = await startSite(temporalAddress, admin, run + 100);
    try {
      // Reads and the sweep need the filled site.
      const fill = await benchFill(site2);
      measured.fillCpu.push(fill.cpu);
      if (floors) measured.floors.push({ ...(await floorFills(temporalAddress, admin, run, floors)), service: fill });
      const reads = ONLY.has('reads')
        ? await benchReads(site2, site2.env.DATABASE_URL!)
        : { rps: NaN, bareRps: NaN, mixedRps: NaN, justWrittenP50: NaN, justWrittenMax: NaN, p99At1000: NaN, pacedRate: NaN, bareP99At1000: NaN };
      const sweep = ONLY.has('sweep') ? await benchSweep(site2) : { seconds: NaN, tenants: NaN, reconciled: NaN, failed: NaN };
      measured.runs.push({
        ...runFigures(creates, fill, reads, sweep),
        apiPeakMb: Math.max(apiPeakCreates, site2.api.peakRssMb()),
        workerPeakMb: site2.worker.peakRssMb(),
      });
    } finally {
      await site2.stop();
    }
  } catch (err) {
    await site.stop().catch(() => {});
    throw err;
  } finally {
    await floors?.stop();
  }
}

interface Floors {
  service: Floor;
  bare: Floor;
  stop(): Promise<void>;
}

/**
 * The fair floor and the bare floor, their workers started from the site's environment, their
 * empty activities answering what one direct create of this site's steps answered.
 */
async function startFloors(site: Site): Promise<Floors> {
  const direct = await directFor(site);
  const { sample } = await direct.create('fsample').finally(() => direct.close());
  const built = await buildFloorWorker(root);
  const service = await startFairFloor(root, built, site.env, 'service', sample);
  const bare = await startFairFloor(root, built, site.env, 'bare', sample);
  return { service, bare, stop: async () => void (await Promise.all([service.stop(), bare.stop()])) };
}

interface FloorFills {
  service?: Awaited<ReturnType<typeof benchFill>>;
  fair: Awaited<ReturnType<typeof fillOf>>;
  bare: Awaited<ReturnType<typeof fillOf>>;
  direct: Awaited<ReturnType<typeof fillOf>>;
}

/** 62 creates by 8 callers on each floor, and the same steps called directly on an empty site. */
async function floorFills(temporalAddress: string, admin: postgres.Sql, run: number, floors: Floors): Promise<FloorFills> {
  const fair = await fillOf((n) => floors.service.create(n), `ff${run}-`, { [floors.service.pid]: 'worker', [process.pid]: 'bench process' });
  if (process.env.BENCH_TIMELINES) {
    const ids = Array.from({ length: 62 }, (_, i) => floors.service.runOf(`ff${run}-${String(i).padStart(3, '0')}`));
    process.stderr.write(`fair floor fill runs, summed: ${JSON.stringify(await runTimelines(floors.service.client, ids))}\n`);
  }
  const bare = await fillOf((n) => floors.bare.create(n), `fb${run}-`, { [floors.bare.pid]: 'worker', [process.pid]: 'bench process' });
  const direct = await onDirectSite(temporalAddress, admin, run + 400, (d) =>
    fillOf((n) => d.create(n), 'g', { [d.pid]: DIRECT_PROCESS, [process.pid]: 'bench process (simulators)' }),
  );
  process.stderr.write(`floor fills: ${JSON.stringify({ fair, bare, direct })}\n`);
  if (process.env.BENCH_FLOOR_BESIDE_DIRECT) await fairFloorBesideDirect(temporalAddress, admin, run, floors);
  return { fair, bare, direct };
}

/**
 * The fair floor's fill and a direct fill at once: each sees the machine as loaded as the service's
 * fill does (its backends and simulators busy), where the floor alone had it to itself.
 */
async function fairFloorBesideDirect(temporalAddress: string, admin: postgres.Sql, run: number, floors: Floors): Promise<void> {
  const [fair, direct] = await onDirectSite(temporalAddress, admin, run + 500, (d) =>
    Promise.all([
      fillOf((n) => floors.service.create(n), `fq${run}-`, { [floors.service.pid]: 'worker' }),
      fillOf((n) => d.create(n), 'q', { [d.pid]: DIRECT_PROCESS }),
    ]),
  );
  process.stderr.write(`floor fills side by side: ${JSON.stringify({ fair, direct })}\n`);
}

/** `use` given the direct steps' process on an empty site of its own (a direct fill takes its tenant indexes); both stopped after. */
async function onDirectSite<T>(temporalAddress: string, admin: postgres.Sql, index: number, use: (direct: Direct) => Promise<T>): Promise<T> {
  const site = await startSite(temporalAddress, admin, index);
  try {
    const direct = await directFor(site);
    try {
      return await use(direct);
    } finally {
      await direct.close();
    }
  } finally {
    await site.stop();
  }
}

/** One run's figures, by the names the report reads them by. */
function runFigures(
  creates: Awaited<ReturnType<typeof benchCreates>>,
  fill: Awaited<ReturnType<typeof benchFill>>,
  reads: Awaited<ReturnType<typeof benchReads>>,
  sweep: Awaited<ReturnType<typeof benchSweep>>,
): Record<string, number> {
  return {
    createP50: creates.p50,
    createP95: creates.p95,
    p95OverP50: creates.p95 / creates.p50,
    createSamples: creates.samples,
    directP50: creates.directP50,
    ratio: creates.p50 / creates.directP50,
    floorP50: creates.floorP50,
    fairFloorP50: creates.fairFloorP50,
    bareFloorP50: creates.bareFloorP50,
    overFairFloor: creates.p50 - creates.directP50 - creates.fairFloorP50,
    ...Object.fromEntries(Object.entries(creates).filter(([k]) => /RunMs|ActivitiesMs|WorkflowTasksMs/.test(k))),
    shareP50: creates.shareP50,
    overFloor: creates.p50 - creates.directP50 - creates.floorP50,
    fillSeconds: fill.seconds,
    fillErrors: fill.errors,
    readRps: reads.rps,
    bareRps: reads.bareRps,
    readRatio: reads.rps / reads.bareRps,
    mixedReadRps: reads.mixedRps,
    justWrittenReadP50: reads.justWrittenP50,
    justWrittenReadMax: reads.justWrittenMax,
    readP99At1000: reads.p99At1000,
    pacedRate: reads.pacedRate,
    bareP99At1000: reads.bareP99At1000,
    sweepSeconds: sweep.seconds,
    sweepFailed: sweep.failed,
    sweepReconciled: sweep.reconciled,
  };
}

/** How one figure is read from the runs. */
function overRuns(runs: Record<string, number>[]) {
  const values = (k: string) => runs.map((r) => r[k]!);
  return {
    /** Reported figures: the median of the runs, with their spread beside it. */
    m: (k: string) => median(values(k)),
    /** A ceiling holds only if every run kept under it: the worst (largest) run is the figure. */
    worst: (k: string) => Math.max(...values(k)),
    /** A floor (≥) holds only if every run reached it: the smallest run is the figure. */
    least: (k: string) => Math.min(...values(k)),
    /** Errors add up over the runs. */
    sum: (k: string) => values(k).reduce((a, b) => a + b, 0),
    spread: (k: string, digits = 1) => `${round(Math.min(...values(k)), digits)}–${round(Math.max(...values(k)), digits)}`,
  };
}

function siteFigures(runs: Record<string, number>[]): Figure[] {
  const { m, worst, least, sum, spread } = overRuns(runs);
  const samples = least('createSamples');
  // A table, one figure a row: the formatter would spread each row over seven lines.
  // prettier-ignore
  const figures: Figure[] = [
    { part: 'creates', name: 'create p50 (POST /v1/tenants → 201)', value: round(m('createP50')), unit: 'ms', target: '≤ direct + floor + 15 ms (worst run)', met: worst('overFloor') <= 15, spread: spread('createP50') },
    { part: 'creates', name: `create p95 (${samples} creates a run)`, value: round(m('createP95')), unit: 'ms', target: '≤ 2 × p50 (worst run), ≥ 100 samples', met: samples >= 100 && worst('p95OverP50') <= 2, spread: spread('createP95') },
    { part: 'creates', name: 'same steps direct, p50', value: round(m('directP50')), unit: 'ms', target: '(reference)', met: true, spread: spread('directP50') },
    { part: 'creates', name: 'Temporal floor: no-op create shape, p50', value: round(m('floorP50')), unit: 'ms', target: '(reference)', met: true, spread: spread('floorP50') },
    { part: 'creates', name: 'create − direct − floor, p50 (worst run)', value: round(worst('overFloor'), 1), unit: 'ms', target: '≤ 15 ms', met: worst('overFloor') <= 15, spread: spread('overFloor') },
    { part: 'creates', name: "Temporal's share per step, p50 (worst run)", value: round(worst('shareP50'), 1), unit: 'ms', target: '≤ 15 ms', met: worst('shareP50') <= 15, spread: spread('shareP50') },
    { part: 'creates', name: 'create / direct ratio', value: round(m('ratio'), 2), unit: '×', target: '(reported)', met: true, spread: spread('ratio', 2) },
    { name: 'fill a site: 62 tenants, 8 callers (worst run)', value: round(worst('fillSeconds'), 2), unit: 's', target: '≤ 6 s', met: worst('fillSeconds') <= 6, spread: spread('fillSeconds', 2) },
    { name: 'fill errors (all runs)', value: sum('fillErrors'), unit: '', target: '0', met: sum('fillErrors') === 0 },
    { part: 'reads', name: 'reads GET /v1/tenants/{t}, one tenant', value: round(m('readRps'), 0), unit: 'req/s', target: '≥ 0.8 × bare (every run)', met: least('readRatio') >= 0.8, spread: spread('readRps', 0) },
    { part: 'reads', name: 'bare Hono + postgres.js PK route', value: round(m('bareRps'), 0), unit: 'req/s', target: '(reference)', met: true, spread: spread('bareRps', 0) },
    { part: 'reads', name: 'reads / bare ratio (least run)', value: round(least('readRatio'), 2), unit: '×', target: '≥ 0.8', met: least('readRatio') >= 0.8, spread: spread('readRatio', 2) },
    { part: 'reads', name: 'mixed reads: all 62 tenants in turn', value: round(m('mixedReadRps'), 0), unit: 'req/s', target: '(reported)', met: true, spread: spread('mixedReadRps', 0) },
    { part: 'reads', name: 'read just after a reconcile of it, p50', value: round(m('justWrittenReadP50'), 1), unit: 'ms', target: '(reported)', met: true, spread: spread('justWrittenReadP50') },
    { part: 'reads', name: 'read just after a reconcile of it, max', value: round(worst('justWrittenReadMax'), 1), unit: 'ms', target: '(reported)', met: true, spread: spread('justWrittenReadMax') },
    { part: 'reads', name: 'read p99 at 1,000 req/s, open loop (worst run)', value: round(worst('readP99At1000'), 1), unit: 'ms', target: '≤ 10 ms', met: worst('readP99At1000') <= 10, spread: spread('readP99At1000') },
    { part: 'reads', name: 'open-loop rate achieved (least run)', value: round(least('pacedRate'), 0), unit: 'req/s', target: '(≈ 1,000)', met: true, spread: spread('pacedRate', 0) },
    { part: 'reads', name: 'bare route p99 at the same rate', value: round(m('bareP99At1000'), 1), unit: 'ms', target: '(reference)', met: true, spread: spread('bareP99At1000') },
    { part: 'sweep', name: 'sweep over 62 ready tenants (worst run)', value: round(worst('sweepSeconds'), 2), unit: 's', target: '≤ 10 s', met: worst('sweepSeconds') <= 10, spread: spread('sweepSeconds', 2) },
    { part: 'sweep', name: 'sweep: tenants reconciled (least run)', value: least('sweepReconciled'), unit: '', target: '62', met: least('sweepReconciled') === 62 },
    { part: 'sweep', name: 'sweep: tenants failed (all runs)', value: sum('sweepFailed'), unit: '', target: '0', met: sum('sweepFailed') === 0 },
    { name: 'API peak RSS (worst run)', value: round(worst('apiPeakMb')), unit: 'MB', target: '≤ 150 MB', met: worst('apiPeakMb') <= 150, spread: spread('apiPeakMb') },
    { name: 'worker peak RSS (worst run)', value: round(worst('workerPeakMb')), unit: 'MB', target: '≤ 300 MB', met: worst('workerPeakMb') <= 300, spread: spread('workerPeakMb') },
  ];
  return figures.filter((f) => f.part === undefined || ONLY.has(f.part));
}

/** The table on stdout, bench/results.json, and with BENCH_PUBLISH the copy docs/performance.md quotes. */
function writeResults(figures: Figure[], { runs, fillCpu, fullSite, realSiteFill, floors, soaks }: Measured): void {
  const width = Math.max(...figures.map((f) => f.name.length));
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${round(totalmem() / 2 ** 30)} GiB; node ${process.version}`;
  const lines = [
    `machine: ${machine}; ${REPEATS} runs: medians unless the line says worst/least run or all runs; [spread of the runs]`,
    ...figures.map(
      (f) =>
        `${f.met ? ' ' : '!'} ${f.name.padEnd(width)}  ${String(f.value).padStart(9)} ${f.unit.padEnd(6)} target ${f.target}${f.spread ? `  [${f.spread}]` : ''}`,
    ),
    ...(fillCpu.length
      ? [
          `fill CPU seconds per component (last run): ${Object.entries(fillCpu.at(-1) ?? {})
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        ]
      : []),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  mkdirSync(join(root, 'bench'), { recursive: true });
  const commit = gitCommit();
  const results =
    JSON.stringify(
      {
        at: new Date().toISOString(),
        commit,
        machine,
        loadAverageAtStart: LOAD_AT_START,
        repeats: REPEATS,
        creates: CREATES,
        figures,
        runs,
        fillCpuSeconds: fillCpu,
        floors: floors.length ? floors : undefined,
        'full-site': fullSite.length ? { settings: sweepSettings(), site: FULL_SITE, runs: fullSite } : undefined,
        'real-site-fill': realSiteFill.length ? { profile: LATENCY_PROFILES['real-site'], runs: realSiteFill } : undefined,
        soak: soaks.length ? { ...SOAK, runs: soaks } : undefined,
      },
      null,
      2,
    ) + '\n';
  writeFileSync(join(root, 'bench/results.json'), results);
  // BENCH_PUBLISH=1: the run docs/performance.md quotes, kept beside it so every figure can be checked.
  if (process.env.BENCH_PUBLISH) {
    mkdirSync(join(root, 'docs/bench'), { recursive: true });
    const file = join(root, 'docs/bench', `${new Date().toISOString().slice(0, 10)}-${commit}.json`);
    writeFileSync(file, results);
    process.stdout.write(`published ${file}\n`);
  }
}

// `kill <pid>` ends the bench as Ctrl-C does: the Temporal SDK's runtime listens for SIGTERM (to
// stop its workers), so the signal alone no longer ended the process, and the servers it started
// (which end with it, core/parent-death.ts) ran on.
process.once('SIGTERM', () => process.exit(143));

main().catch((err: unknown) => {
  // The API's 503 keeps its cause off the wire; the bench is its own caller, so it shows it.
  const cause = (err as { cause?: unknown }).cause;
  process.stderr.write(
    `bench failed: ${(err as Error).stack ?? String(err)}\n${cause === undefined ? '' : `caused by: ${(cause as Error).stack ?? String(cause)}\n`}`,
  );
  process.exit(1);
});
