import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Agent, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig, type Config } from '../../apps/config/env.js';
import { createLogger } from '../../apps/api/logger.js';
import { startApi, type RunningApi } from '../../apps/api/server.js';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { createWorker } from '../../apps/worker/worker.js';
import { workerVersion } from '../../apps/worker/deployment.js';
import { makeCurrent } from '../../temporal/worker-deployment.js';
import { bindPorts, releasePorts, workerBackendCalls, type BackendPorts } from '../../activities/backend-areas.js';
import { startWorkerTelemetry, type RunningWorkerTelemetry } from '../../apps/worker/start-telemetry.js';
import { Registry } from '../../db/registry.js';
import { dataConverter } from '../../temporal/data-converter.js';
import { ensureNamespace } from '../../temporal/namespace.js';
import { freshDatabase } from './database.js';
import { API_LISTENING, reportedAddress } from './reported-address.js';
import { waitFor } from './wait-for.js';
import { installQuietRuntime } from './runtime.js';
import { endingWithParent } from '../../core/parent-death.js';

// The API holds a call open for as long as its run works on it (a clone of minutes; a create the
// crash test's worker kills keep from finishing for minutes): a test waits for the answer as a
// client does, not giving up at fetch's five-minute default with the run still going.
setGlobalDispatcher(new Agent({ headersTimeout: 15 * 60_000, bodyTimeout: 15 * 60_000 }));

/**
 * A whole lab site for an end-to-end suite: real PowerDNS and Recursor, the simulators, its own
 * database and Temporal namespace, and the API and worker in this process on the shared Temporal
 * dev server. Every request goes through HTTP, as an operator's would.
 */
export interface TestSite {
  url: string;
  operatorToken: string;
  egressToken: string;
  /** The decode-only codec token (CODEC_TOKEN). */
  codecToken: string;
  config: Config;
  backends: LabBackends;
  /** Every log line of the API and worker, for secret scans. */
  logs: string[];
  call(
    method: string,
    path: string,
    opts?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  startWorker(): Promise<void>;
  /** The in-process worker's metrics listener, when WORKER_METRICS_ADDRESS was given. */
  workerMetricsUrl?: string;
  /** The API's metrics listener, when METRICS_ADDRESS was given. */
  apiMetricsUrl?: string;
  /** The worker as its own process (`apps/worker/main.ts`), for crash tests; `env` over the site's (and its LOG_LEVEL warn). */
  spawnWorker(env?: Record<string, string>): ChildProcess;
  /**
   * The API as its own process (`apps/api/main.ts`) on the site's database and Temporal, for crash
   * tests; on `port` when given (a restart keeps its URL; 0: a port the process binds and reports).
   * Resolves once `/readyz` answers 200.
   */
  /** An API process of its own on the site's settings, `env` over them (a Temporal address behind a proxy). */
  spawnApi(opts?: { port?: number; env?: Record<string, string> }): Promise<{ child: ChildProcess; url: string; port: number }>;
  stopWorker(): Promise<void>;
  registry: Registry;
  temporal: Connection;
  namespace: string;
  /** A Temporal client with the site's payload codec, as an engineer's tools decode runs. */
  client: Client;
  stop(): Promise<void>;
}

export async function startTestSite(
  opts: {
    /** Settings over the lab's; a function gets the environment built so far (its database, ports). */
    env?: Record<string, string> | ((built: Record<string, string>) => Record<string, string>);
    withoutSite?: boolean;
    backendTimeoutMs?: number;
    worker?: boolean;
    /** Only the core backends: no log store, dashboards, Wi-Fi, DHCP, broker or CA. */
    minimal?: boolean;
    /** A Temporal dev server of the test's own (one with its UI); the shared one by default. */
    temporalAddress?: string;
    /** The in-process API's and worker's log level (default info); the secrets scan runs at debug. */
    logLevel?: 'info' | 'debug' | 'trace';
  } = {},
): Promise<TestSite> {
  installQuietRuntime();
  const backends = await startLabBackends({ minimal: opts.minimal, pveStatsIntervalMs: 1_000 });
  const databaseUrl = await freshDatabase();
  const namespace = `t-${randomBytes(5).toString('hex')}`;
  const temporalAddress = opts.temporalAddress ?? inject('temporalAddress');
  const operatorToken = `op-${randomBytes(16).toString('hex')}`;
  const egressToken = `eg-${randomBytes(16).toString('hex')}`;
  const codecToken = `cd-${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    OPERATOR_TOKEN: operatorToken,
    EGRESS_AGENT_TOKEN: egressToken,
    CODEC_TOKEN: codecToken,
    DATABASE_URL: databaseUrl,
    LISTEN_ADDRESS: '127.0.0.1:0',
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: `q-${namespace}`,
    LOG_LEVEL: opts.logLevel ?? 'info',
    // One build for every worker of the site, in-process or spawned: the checkout's commit (the
    // default) reads `-dirty` once a tracked file is edited, and a worker spawned after that edit
    // would be a version nothing routes to.
    TEMPORAL_WORKER_BUILD_ID: 'test-site',
    ...(opts.withoutSite ? {} : backends.env),
  };
  Object.assign(env, typeof opts.env === 'function' ? opts.env({ ...env }) : opts.env);
  const config = loadConfig(env);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  const log = createLogger(opts.logLevel ?? 'info', 'test', sink);
  const temporal = await Connection.connect({ address: temporalAddress });
  await ensureNamespace(temporal, namespace);
  const api: RunningApi = await startApi({ config, log });
  const registry = new Registry(databaseUrl, undefined, 4);
  // The in-process worker reaches the registry where the site says, as the API does: a test that
  // puts a proxy in front of the database (database-cut) cuts the worker's connections too.
  const workerRegistry = env.DATABASE_URL === databaseUrl ? registry : new Registry(env.DATABASE_URL!, log);
  await waitFor(async () => (await fetch(`${api.url}/readyz`)).status === 200);

  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let workerConnection: NativeConnection | undefined;
  let workerTelemetry: RunningWorkerTelemetry | undefined;
  let workerPorts: BackendPorts | undefined;
  const children: ChildProcess[] = [];
  const site: TestSite = {
    url: api.url,
    operatorToken,
    egressToken,
    codecToken,
    config,
    backends,
    logs,
    registry,
    temporal,
    namespace,
    client: new Client({ connection: temporal, namespace, dataConverter: dataConverter(config.codecKey) }),
    apiMetricsUrl: api.metricsUrl,
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      const token = o.token === undefined ? operatorToken : o.token;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      let body: string | undefined = o.raw;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${api.url}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed, headers: res.headers, text };
    },
    async startWorker() {
      if (opts.withoutSite) return;
      workerConnection ??= await NativeConnection.connect({ address: temporalAddress });
      workerTelemetry ??= await startWorkerTelemetry(config);
      site.workerMetricsUrl = workerTelemetry.metricsUrl;
      // Released when the worker stops: the broker's control connection would otherwise outlive the site, reconnecting every second.
      // Paced and counted apart from any other worker of this process (the tests run several).
      const calls = workerBackendCalls(config.site!, workerTelemetry.telemetry?.observeBackendCall);
      workerPorts = bindPorts(config.site!, { timeoutMs: opts.backendTimeoutMs ?? 3000, calls });
      // A version of the site's deployment, current in its namespace, as the lab's worker is.
      const version = workerVersion(config);
      await makeCurrent({ connection: temporal, namespace }, version, 'always');
      worker = await createWorker({
        version,
        telemetry: workerTelemetry.telemetry,
        config,
        registry: workerRegistry,
        log,
        connection: workerConnection,
        ports: workerPorts,
        calls,
        workflowBundlePath: inject('workflowBundle'),
      });
      running = worker.run();
    },
    spawnWorker(extra = {}) {
      // The worker's main makes the isolation check's Schedule, whose hourly tick lands on the hour:
      // a test spanning it would find the canary pair made among the tenants it counts (CI, 13:00).
      // A test of the Schedule asks for it (`extra`).
      const child = spawn(...endingWithParent(process.execPath, [inject('entryBundles').worker]), {
        env: {
          ...process.env,
          SITE_ISOLATION_CHECK_INTERVAL: 'off',
          ...env,
          LOG_LEVEL: 'warn',
          WORKFLOW_BUNDLE: inject('workflowBundle'),
          SITE_BACKEND_TIMEOUT: '3s',
          ...extra,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (d: Buffer) => logs.push(d.toString()));
      child.stderr?.on('data', (d: Buffer) => logs.push(d.toString()));
      children.push(child);
      return child;
    },
    async spawnApi(o = {}) {
      // Port 0 unless a restart must keep its URL: the child binds, then says where (`api listening`).
      const child = spawn(...endingWithParent(process.execPath, [inject('entryBundles').api]), {
        env: { ...process.env, ...env, LOG_LEVEL: 'info', LISTEN_ADDRESS: `127.0.0.1:${o.port ?? 0}`, ...o.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const url = await reportedAddress(child, API_LISTENING, { onOutput: (text) => logs.push(text) }).catch((e: Error) => {
        throw new Error(`the spawned api ${e.message}`);
      });
      const exited = () => child.exitCode !== null || child.signalCode !== null;
      await waitFor(async () => exited() || (await fetch(`${url}/readyz`)).status === 200, 30_000);
      if (exited()) throw new Error(`the spawned api exited (${child.exitCode ?? child.signalCode})`);
      return { child, url, port: Number(new URL(url).port) };
    },
    async stopWorker() {
      if (worker && worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      worker = undefined;
      if (workerPorts) await releasePorts(workerPorts);
      workerPorts = undefined;
    },
    async stop() {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      await site.stopWorker();
      await workerConnection?.close();
      await workerTelemetry?.close();
      await api.close();
      if (workerRegistry !== registry) await workerRegistry.close();
      await registry.close();
      await temporal.close();
      await backends.stop();
    },
  };
  if (opts.worker !== false) await site.startWorker();
  return site;
}

/**
 * A site for a whole test file: started before its first test, stopped after its last. The getter
 * answers it from then on; a file that needs no more of its own set-up says so in one line.
 */
export function siteForFile(opts?: Parameters<typeof startTestSite>[0], startTimeoutMs?: number): () => TestSite {
  let site: TestSite | undefined;
  beforeAll(async () => {
    site = await startTestSite(opts);
  }, startTimeoutMs);
  afterAll(async () => {
    await site?.stop();
  });
  return () => {
    if (!site) throw new Error('the site is not started: it is there only inside tests and hooks');
    return site;
  };
}

export { waitFor };
