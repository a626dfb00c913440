import type { Client } from '@temporalio/client';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'mqtt';
import { runIds } from '../contracts/ids.js';
import type { SweepResult } from '../contracts/tenant.js';
import { cpuSeconds, cpuSnapshot } from './cpu.js';
import type { ServiceProcess } from './processes.js';

/**
 * The full-site part of the bench (issue 26 item 4): a site filled to what a real one holds,
 * through the API, then its reconcile sweep timed, with the calls it sends each backend, the CPU
 * it costs and the memory it takes. `BENCH_ONLY=full-site`.
 */

/** What each of the 62 tenants holds (issue 26). */
export const FULL_SITE = { tenants: 62, workloads: 10, records: 10, devices: 4, wifiKeys: 3, brokerAccounts: 5 } as const;

/**
 * The lab's device network is a /24 with 128 device addresses; 62 tenants with 4 addressed devices
 * need 248. The full site's Kea serves a /22 and each trust class a range of 254 in it.
 */
export const FULL_SITE_DEVICES = {
  subnet: '10.200.0.0/22',
  trustClasses: {
    sensor: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.200.1.1-10.200.1.254' },
    camera: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.200.2.1-10.200.2.254' },
  },
};

/** Callers filling the site at once: each takes a whole tenant (2 cores shared with everything). */
const CALLERS = Number(process.env.BENCH_FULL_SITE_CALLERS ?? 4);

export interface FullSite {
  url: string;
  token: string;
  env: Record<string, string>;
  api: ServiceProcess;
  worker: ServiceProcess;
  client: Client;
}

interface Call {
  method: 'POST' | 'PUT';
  path: string;
  body?: unknown;
  /** The status a call that did its work answers. */
  want: number;
}

/** An answer's body: only a tenant's `network.subnet` is read from it. */
type Answer = { status: number; body: { network?: { subnet: string } } | string };

async function send(site: FullSite, call: Call): Promise<Answer> {
  const r = await fetch(`${site.url}${call.path}`, {
    method: call.method,
    headers: { authorization: `Bearer ${site.token}`, 'content-type': 'application/json' },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  const text = await r.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: r.status, body };
}

const hex = (n: number) => n.toString(16).padStart(2, '0');

/** Every object call of one tenant after its create, in an order that works (a device before its address). */
export function objectCalls(t: string, tenantIndex: number, subnet: string): Call[] {
  const base = `/v1/tenants/${t}`;
  const prefix = subnet.split('/')[0]!.split('.').slice(0, 3).join('.');
  const calls: Call[] = [];
  for (let i = 0; i < FULL_SITE.workloads; i++) calls.push({ method: 'POST', path: `${base}/workloads`, body: { name: `w${i}` }, want: 201 });
  // Subnet addresses above the workloads' (.10 + ordinal), one name each.
  for (let i = 0; i < FULL_SITE.records; i++)
    calls.push({ method: 'PUT', path: `${base}/records/r${i}`, body: { address: `${prefix}.${200 + i}` }, want: 200 });
  for (let i = 0; i < FULL_SITE.devices; i++) {
    // Locally administered unicast MACs, unique on the site: 02:00:<tenant>:<device>.
    const mac = `02:00:00:00:${hex(tenantIndex)}:${hex(i)}`;
    calls.push({ method: 'POST', path: `${base}/devices`, body: { name: `d${i}`, trust_class: i % 2 ? 'camera' : 'sensor', mac }, want: 201 });
    calls.push({ method: 'POST', path: `${base}/devices/d${i}/address`, body: {}, want: 201 });
  }
  for (let i = 0; i < FULL_SITE.wifiKeys; i++)
    calls.push({ method: 'POST', path: `${base}/wifi-keys`, body: { name: `k${i}`, trust_class: 'sensor' }, want: 201 });
  for (let i = 0; i < FULL_SITE.brokerAccounts; i++) {
    calls.push({ method: 'POST', path: `${base}/broker-accounts`, body: { name: `a${i}`, publish: ['data/#'], subscribe: ['cmd/#'] }, want: 201 });
  }
  return calls;
}

export const fullSiteTenant = (i: number) => `s${String(i).padStart(3, '0')}`;

/**
 * Fills the site through the API, `CALLERS` tenants at a time, each tenant's calls in order. A
 * call that answers anything else than its success status is repeated (every create is an
 * idempotent ensure) up to twice; what still fails counts as an error and is printed.
 */
export async function fillFullSite(site: FullSite): Promise<{ seconds: number; calls: number; errors: number; repeats: number; cpu: Record<string, number> }> {
  const known = { [site.api.child.pid!]: 'api', [site.worker.child.pid!]: 'worker', [process.pid]: 'lab simulators (bench process)' };
  const before = cpuSnapshot(known, process.pid);
  let next = 0;
  let calls = 0;
  let errors = 0;
  let repeats = 0;
  const attempt = async (call: Call): Promise<Answer | undefined> => {
    for (let tries = 0; tries < 3; tries++) {
      if (tries > 0) repeats++;
      calls++;
      const r = await send(site, call);
      if (r.status === call.want || (call.want === 201 && r.status === 200)) return r;
      if (tries === 2) process.stderr.write(`full-site fill: ${call.method} ${call.path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}\n`);
    }
    errors++;
    return undefined;
  };
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < FULL_SITE.tenants) {
        const i = next++;
        const name = fullSiteTenant(i);
        const created = await attempt({ method: 'POST', path: '/v1/tenants', body: { name }, want: 201 });
        if (!created) continue;
        const subnet = typeof created.body === 'string' ? undefined : created.body.network?.subnet;
        if (!subnet) throw new Error(`tenant ${name}: the create answered no network`);
        for (const call of objectCalls(name, i, subnet)) await attempt(call);
        if (process.env.BENCH_PROGRESS) process.stderr.write(`full-site fill: ${name} done at ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, calls, errors, repeats, cpu: cpuSeconds(before, cpuSnapshot(known, process.pid)) };
}

/** `name{labels} value` lines of a Prometheus text answer, summed by the labels asked for. */
export function sumBy(text: string, metric: string, labels: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`)) continue;
    const body = line.slice(metric.length + 1, line.lastIndexOf('}'));
    const pairs = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    const key = labels.map((l) => pairs[l] ?? '').join(' ');
    out[key] = (out[key] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}

function diff(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) {
    const d = v - (before[k] ?? 0);
    if (d > 0) out[k] = d;
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

/** Sets the kernel's high-water mark of a process's resident set back to its current size. */
function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted here: the peak then covers the process's whole life.
  }
}

/**
 * Counts the broker's dynamic-security answers while the sweep runs: the broker is driven over
 * MQTT, not HTTP, so the worker's backend-call counter does not see it. Every admin connection
 * receives every answer on the response topic; one message answers one request of N commands.
 */
async function brokerCounter(env: Record<string, string>) {
  if (!env.SITE_BROKER_URL) return { stop: async () => ({ requests: 0, commands: {} as Record<string, number> }) };
  const c = connect(env.SITE_BROKER_URL, {
    username: env.SITE_BROKER_ADMIN_USER,
    password: env.SITE_BROKER_ADMIN_PASSWORD,
    clientId: `bench-${process.pid}`,
    reconnectPeriod: 0,
  });
  let requests = 0;
  const commands: Record<string, number> = {};
  c.on('message', (_topic, payload) => {
    requests++;
    for (const r of (JSON.parse(payload.toString('utf8')) as { responses?: Array<{ command: string }> }).responses ?? [])
      commands[r.command] = (commands[r.command] ?? 0) + 1;
  });
  await new Promise<void>((resolve, reject) => {
    c.once('connect', () => c.subscribe('$CONTROL/dynamic-security/v1/response', { qos: 1 }, (err) => (err ? reject(err) : resolve())));
    c.once('error', reject);
  });
  return {
    stop: async () => {
      await c.endAsync();
      return { requests, commands: Object.fromEntries(Object.entries(commands).sort((a, b) => b[1] - a[1])) };
    },
  };
}

export interface SweepFigures {
  mode: string;
  /** The sweep's concurrency (SITE_SWEEP_CONCURRENCY) and pace (SITE_BACKEND_CALLS_PER_SECOND). */
  concurrency: number;
  callsPerSecond: number;
  seconds: number;
  tenants: number;
  /** Tenants reconciled, or planned in a plan sweep. */
  reconciled: number;
  failed: number;
  skipped: number;
  /** Objects the sweep found per area and result, summed over the tenants. */
  found: Record<string, Record<string, number>>;
  /** HTTP calls per backend (the worker's provisioning_backend_calls_total). */
  callsByBackend: Record<string, number>;
  /** HTTP calls per step activity and backend (provisioning_backend_calls_by_activity_total). */
  callsByActivity: Record<string, number>;
  /** Per step activity: its runs and the seconds they took, summed (provisioning_step_duration_seconds). */
  activitySeconds: Record<string, { runs: number; seconds: number }>;
  /** The tenants' runs of this sweep from their histories, summed (runTimelines). */
  timelines?: Awaited<ReturnType<typeof runTimelines>>;
  /** Broker (MQTT dynamic-security) requests and commands, counted at the broker's response topic. */
  broker: { requests: number; commands: Record<string, number> };
  /** The pacing bound: the largest (calls − one second's burst) / rate over the HTTP backends. */
  paceBoundSeconds: number;
  paceBoundBackend: string;
  cpu: Record<string, number>;
  workerPeakMb: number;
  /** The worker's memory at the sweep's end, MB: resident, its main thread's heap, external (buffers). */
  workerMemory: { rss: number; mainHeapTotal: number; mainHeapUsed: number; external: number };
  apiPeakMb: number;
}

/**
 * One sweep of the filled site, started by triggering the site's reconcile Schedule (the one the
 * worker created with the site's settings): its wall time from the run's start to its close.
 */
export async function sweepFullSite(
  site: FullSite,
  metricsUrl: string,
  settings: { concurrency: number; callsPerSecond: number; mode: string },
): Promise<SweepFigures> {
  const known = { [site.api.child.pid!]: 'api', [site.worker.child.pid!]: 'worker', [process.pid]: 'lab simulators (bench process)' };
  const scrape = async () => (await fetch(metricsUrl)).text();
  const earlier = new Set<string>();
  for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) earlier.add(w.runId);
  const m0 = await scrape();
  const broker = await brokerCounter(site.env);
  resetPeakRss(site.worker.child.pid!);
  resetPeakRss(site.api.child.pid!);
  const before = cpuSnapshot(known, process.pid);
  await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).trigger();
  let found: { workflowId: string; runId: string; start: number } | undefined;
  while (!found) {
    for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) {
      if (!earlier.has(w.runId)) found = { workflowId: w.workflowId, runId: w.runId, start: w.startTime.getTime() };
    }
    if (!found) await new Promise((r) => setTimeout(r, 100));
  }
  const handle = site.client.workflow.getHandle(found.workflowId, found.runId);
  const result = (await handle.result()) as SweepResult;
  const closed = (await handle.describe()).closeTime!.getTime();
  const cpu = cpuSeconds(before, cpuSnapshot(known, process.pid));
  const workerPeakMb = site.worker.peakRssMb();
  const apiPeakMb = site.api.peakRssMb();
  // The counters are bumped as calls end; the last were before the run closed.
  const m1 = await scrape();
  // Where the worker's memory is at the sweep's end: its main thread's V8 heap and what lies
  // outside it (the workflow thread's isolate, the SDK's core, code), from its default metrics.
  const mb = (name: string) => Math.round(Number(m1.match(new RegExp(`^${name} (\\S+)`, 'm'))?.[1] ?? NaN) / 1e5) / 10;
  const workerMemory = {
    rss: mb('process_resident_memory_bytes'),
    mainHeapTotal: mb('nodejs_heap_size_total_bytes'),
    mainHeapUsed: mb('nodejs_heap_size_used_bytes'),
    external: mb('nodejs_external_memory_bytes'),
  };
  const brokerCalls = await broker.stop();
  const callsByBackend = diff(sumBy(m1, 'provisioning_backend_calls_total', ['backend']), sumBy(m0, 'provisioning_backend_calls_total', ['backend']));
  const callsByActivity = diff(
    sumBy(m1, 'provisioning_backend_calls_by_activity_total', ['activity', 'backend']),
    sumBy(m0, 'provisioning_backend_calls_by_activity_total', ['activity', 'backend']),
  );
  const runs = diff(
    sumBy(m1, 'provisioning_step_duration_seconds_count', ['step', 'operation']),
    sumBy(m0, 'provisioning_step_duration_seconds_count', ['step', 'operation']),
  );
  const seconds = diff(
    sumBy(m1, 'provisioning_step_duration_seconds_sum', ['step', 'operation']),
    sumBy(m0, 'provisioning_step_duration_seconds_sum', ['step', 'operation']),
  );
  const activitySeconds = Object.fromEntries(
    Object.entries(seconds)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => [k.replace(' ', '.'), { runs: runs[k] ?? 0, seconds: Math.round(v * 100) / 100 }]),
  );
  let paceBoundSeconds = 0;
  let paceBoundBackend = '';
  if (settings.callsPerSecond > 0) {
    for (const [backend, calls] of Object.entries(callsByBackend)) {
      const bound = Math.max(0, calls - settings.callsPerSecond) / settings.callsPerSecond;
      if (bound > paceBoundSeconds) [paceBoundSeconds, paceBoundBackend] = [bound, backend];
    }
  }
  // After the figures above: reading 62 histories is no part of the sweep.
  const names = result.mode === 'plan' ? (result.planned ?? []) : result.reconciled;
  const timelines = process.env.BENCH_TIMELINES
    ? await runTimelines(
        site.client,
        names.map((n) => (result.mode === 'plan' ? runIds.tenantPlan(n) : runIds.tenantReconcile(n))),
      )
    : undefined;
  const sum: Record<string, Record<string, number>> = {};
  for (const areas of Object.values(result.found ?? {})) {
    for (const [area, results] of Object.entries(areas)) {
      for (const [r, n] of Object.entries(results)) (sum[area] ??= {})[r] = (sum[area]![r] ?? 0) + n;
    }
  }
  return {
    mode: settings.mode,
    concurrency: settings.concurrency,
    callsPerSecond: settings.callsPerSecond,
    seconds: (closed - found.start) / 1000,
    tenants: result.tenants,
    // A plan sweep lists its tenants as planned; nothing is reconciled.
    reconciled: result.mode === 'plan' ? (result.planned?.length ?? 0) : result.reconciled.length,
    failed: result.failed.length,
    skipped: result.skipped.length,
    found: sum,
    callsByBackend,
    callsByActivity,
    activitySeconds,
    timelines,
    broker: brokerCalls,
    paceBoundSeconds,
    paceBoundBackend,
    cpu,
    workerPeakMb,
    workerMemory,
    apiPeakMb,
  };
}

/** Whether this checkout's site settings know the sweep's plan mode (issue 26 item 3). */
export function sweepModeExists(root: string): boolean {
  return readFileSync(`${root}/core/site.ts`, 'utf8').includes('SITE_SWEEP_MODE');
}

/** Milliseconds of a history event's time. */
const at = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/**
 * Where the tenants' runs of a sweep spent their time, from their histories (summed over the
 * tenants, in seconds): the whole run, its activities executing, activities waiting to start,
 * workflow tasks executing on the worker and waiting for it, and the local activities' markers.
 */
export async function runTimelines(client: Client, workflowIds: string[]) {
  const sum = {
    runs: 0,
    wall: 0,
    activityExec: 0,
    activityWait: 0,
    workflowTaskExec: 0,
    workflowTaskWait: 0,
    workflowTasks: 0,
    activities: 0,
    localActivities: 0,
    /** Activity attempts after the first (a retried step costs the worker and the server again). */
    retries: 0,
    events: 0,
  };
  for (const id of workflowIds) {
    const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
    if (events.length === 0) continue;
    const time = new Map<number, number>();
    for (const e of events) time.set(Number(e.eventId), at(e.eventTime));
    sum.runs++;
    sum.events += events.length;
    sum.wall += at(events.at(-1)!.eventTime) - at(events[0]!.eventTime);
    for (const e of events) {
      const t = at(e.eventTime);
      const ac = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes;
      if (ac) {
        sum.activities++;
        sum.activityExec += t - time.get(Number(ac.startedEventId))!;
        sum.activityWait += time.get(Number(ac.startedEventId))! - time.get(Number(ac.scheduledEventId))!;
      }
      const wc = e.workflowTaskCompletedEventAttributes;
      if (wc) {
        sum.workflowTasks++;
        sum.workflowTaskExec += t - time.get(Number(wc.startedEventId))!;
        sum.workflowTaskWait += time.get(Number(wc.startedEventId))! - time.get(Number(wc.scheduledEventId))!;
      }
      if (e.markerRecordedEventAttributes) sum.localActivities++;
      const started = e.activityTaskStartedEventAttributes;
      if (started) sum.retries += Math.max(0, (started.attempt ?? 1) - 1);
    }
  }
  const s = (ms: number) => Math.round(ms / 10) / 100;
  return {
    ...sum,
    wall: s(sum.wall),
    activityExec: s(sum.activityExec),
    activityWait: s(sum.activityWait),
    workflowTaskExec: s(sum.workflowTaskExec),
    workflowTaskWait: s(sum.workflowTaskWait),
  };
}
