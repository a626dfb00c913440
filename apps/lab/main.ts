import { PARKED_RUNS_QUERY, runListUrl } from '../../temporal/saved-queries.js';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { ConfigError, loadConfig } from '../config/env.js';
import { belowNodeFloor } from '../config/node-floor.js';
import { createLogger } from '../api/logger.js';
import { startApi } from '../api/server.js';
import { createWorker } from '../worker/worker.js';
import { keepLogRoutes } from '../worker/log-route-keeper.js';
import { relayEvents } from '../worker/event-relay.js';
import { connectClient } from '../../temporal/connection.js';
import { workerVersion } from '../worker/deployment.js';
import { makeCurrent } from '../../temporal/worker-deployment.js';
import { Registry } from '../../db/registry.js';
import { startDevServer } from '../../temporal/dev-server.js';
import { ensureNamespace } from '../../temporal/namespace.js';
import { ensureSiteSchedules } from '../../temporal/schedules.js';
import { startLabBackends } from './backends.js';
import { holdLabDir, LabDirInUse } from './lab-lock.js';
import { startCodecProxy } from './codec-proxy.js';
import { startPrometheus } from './servers/prometheus.js';
import { installRuntime, startWorkerTelemetry } from '../worker/start-telemetry.js';
import { workerBackendCalls } from '../../activities/backend-areas.js';

/**
 * `npm start`: one lab site on this machine. The Temporal dev server (with its UI), the real
 * PowerDNS and Recursor, Kea, Mosquitto and Caddy, the simulated Proxmox VE and MinIO, the registry
 * database, and the worker and API. The site is kept under `.lab/` (LAB_DIR): a start after a stop
 * brings the same tenants, backends' objects and Temporal history back; `--fresh` removes all of it
 * and starts a new, empty site. Honours OPERATOR_TOKEN, CODEC_TOKEN, EGRESS_AGENT_TOKEN,
 * LISTEN_ADDRESS, DATABASE_URL, LAB_DIR, LAB_DATABASE (the registry's name, default tenant_lab) and
 * TEMPORAL_PORT / TEMPORAL_UI_PORT (the UI's default 8233; 0: any port, which the lab prints).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const labDir = resolve(process.env.LAB_DIR ?? join(root, '.lab'));
const fresh = process.argv.slice(2).includes('--fresh');
const databaseName = process.env.LAB_DATABASE ?? 'tenant_lab';

/** What a kept site holds under the lab directory; `--fresh` removes exactly these. */
const SITE_FILES = [
  'temporal.db',
  'temporal.db-wal',
  'temporal.db-shm',
  'temporal.db-journal',
  'site-state.json',
  'simulators.json',
  'simulators.json.tmp',
  'tokens.json',
  'site.env',
  'pdns',
  'recursor',
  'kea',
  'mosquitto',
  'caddy',
  'prometheus',
];

async function labDatabase(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  if (!/^[a-z_][a-z0-9_]*$/.test(databaseName)) throw new Error(`LAB_DATABASE must be a plain lower-case name, not ${databaseName}`);
  // The registry is the site's: kept across starts with the backends' data, new with --fresh.
  const admin = postgres('postgres://postgres@127.0.0.1:5432/postgres', { max: 1, onnotice: () => {} });
  if (fresh) await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
  const [{ exists }] = await admin<[{ exists: boolean }]>`select exists (select 1 from pg_database where datname = ${databaseName}) as exists`;
  if (!exists) await admin.unsafe(`create database ${databaseName}`);
  await admin.end();
  return `postgres://postgres@127.0.0.1:5432/${databaseName}`;
}

/** The operator and codec tokens: the environment's, else the ones this site was first given. */
function labTokens(): { operatorToken: string; codecToken: string } {
  const file = join(labDir, 'tokens.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { operatorToken?: string; codecToken?: string }) : {};
  const generated = {
    operatorToken: kept.operatorToken ?? `lab-${randomBytes(18).toString('base64url')}`,
    // Decode-only: what the UI's proxy and an engineer's CLI hold to read runs (docs/production.md).
    codecToken: kept.codecToken ?? `codec-${randomBytes(18).toString('base64url')}`,
  };
  writeFileSync(file, JSON.stringify(generated) + '\n', { mode: 0o600 });
  return { operatorToken: process.env.OPERATOR_TOKEN ?? generated.operatorToken, codecToken: process.env.CODEC_TOKEN ?? generated.codecToken };
}

/** What main started, stopped again when it fails partway (a lab that failed leaves no server behind). */
const started: (() => Promise<unknown>)[] = [];

/** Stops what main has started, last first, one at a time; a stopped server leaves the list. */
async function stopStarted(): Promise<void> {
  for (let stop = started.pop(); stop; stop = started.pop()) await stop().catch(() => {});
}

/** The start of a server main lists, while one is under way; listed before this settles. */
let starting: Promise<unknown> = Promise.resolve();

/**
 * Starts a server and lists how to stop it; past a Ctrl-C, main goes no further. The stop waits
 * for `starting`, not for main, whose in-process starts (the API, the worker) it need not wait for.
 */
function listed<S extends { stop(): Promise<unknown> }>(start: Promise<S>): Promise<S> {
  const server = start.then((s) => (started.push(() => s.stop()), s));
  starting = server.catch(() => {});
  return server.then((s) => {
    if (interrupted) throw new Error('interrupted while starting');
    return s;
  });
}

/**
 * Ctrl-C before the lab is ready: what has started is stopped, as after a failed start, and a
 * server still starting then is stopped once it has (it is listed as its start returns).
 */
let interrupted = false;
const stopWhileStarting = (): void => {
  if (interrupted) return;
  interrupted = true;
  void (async () => {
    await stopStarted();
    await starting;
    await stopStarted();
    process.exit(130);
  })();
};
process.on('SIGINT', stopWhileStarting);
process.on('SIGTERM', stopWhileStarting);

async function main(): Promise<void> {
  // Before anything starts: an older Node would fail at loadConfig with the servers already up.
  const tooOld = belowNodeFloor(process.versions.node);
  if (tooOld) throw new ConfigError(`${tooOld}; run the lab with \`npm start\`, which puts the project's pinned Node first on PATH`);
  mkdirSync(labDir, { recursive: true });
  // Before anything of the folder is touched: a lab running from it keeps it.
  holdLabDir(labDir);
  if (fresh) for (const name of SITE_FILES) rmSync(join(labDir, name), { recursive: true, force: true });
  // Metrics are on in the lab: each part on a loopback port of its own, Temporal's Core runtime too.
  const coreMetricsAddress = await installRuntime(
    { logger: { log() {}, trace() {}, debug() {}, info() {}, warn: (m) => console.warn(m), error: (m) => console.error(m) } },
    true,
  );
  const { operatorToken, codecToken } = labTokens();
  let apiStarted!: (url: string) => void;
  let uiStarted!: (origin: string) => void;
  const codec = await startCodecProxy({
    apiUrl: new Promise<string>((r) => (apiStarted = r)),
    token: codecToken,
    uiOrigin: new Promise<string>((r) => (uiStarted = r)),
  });
  const temporal = await listed(
    startDevServer({
      projectRoot: root,
      ...(process.env.TEMPORAL_PORT ? { port: Number(process.env.TEMPORAL_PORT) } : {}),
      uiPort: Number(process.env.TEMPORAL_UI_PORT ?? 8233),
      dbFile: join(labDir, 'temporal.db'),
      codecEndpoint: codec.url,
    }),
  );
  const uiOrigin = temporal.uiUrl!;
  uiStarted(uiOrigin);
  const backends = await listed(startLabBackends({ stateDir: labDir }));
  const env: NodeJS.ProcessEnv = {
    ...backends.env,
    ...process.env,
    OPERATOR_TOKEN: operatorToken,
    CODEC_TOKEN: codecToken,
    DATABASE_URL: await labDatabase(),
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_UI_ORIGIN: uiOrigin,
    METRICS_ADDRESS: process.env.METRICS_ADDRESS ?? '127.0.0.1:0',
    WORKER_METRICS_ADDRESS: process.env.WORKER_METRICS_ADDRESS ?? '127.0.0.1:0',
  };
  const config = loadConfig(env);
  const log = createLogger(config.env.LOG_LEVEL, 'lab');
  const clientConnection = await Connection.connect({ address: temporal.address });
  await ensureNamespace(clientConnection, config.env.TEMPORAL_NAMESPACE);
  const scheduler = new Client({ connection: clientConnection, namespace: config.env.TEMPORAL_NAMESPACE });
  await ensureSiteSchedules(scheduler, config.env.TEMPORAL_TASK_QUEUE, config.site!);
  // The lab's one worker is the site: its build (the checkout's commit, as /version says) is made
  // current, so new runs begin on it and the Temporal UI shows each run's deployment and build id.
  const version = workerVersion(config);
  await makeCurrent({ connection: clientConnection, namespace: config.env.TEMPORAL_NAMESPACE }, version, 'always');
  const pinnedElsewhere = await new Client({ connection: clientConnection, namespace: config.env.TEMPORAL_NAMESPACE }).workflow.count(
    `ExecutionStatus = "Running" AND TemporalWorkerDeployment = "${version.deploymentName}" AND TemporalWorkerDeploymentVersion != "${version.deploymentName}:${version.buildId}"`,
  );
  await clientConnection.close();

  const api = await startApi({ config, log });
  const registry = new Registry(config.env.DATABASE_URL, log, 5);
  await registry.migrate();
  const connection = await NativeConnection.connect({ address: temporal.address });
  const telemetry = await startWorkerTelemetry(config, { coreMetricsAddress });
  // The worker's backend calls and its log route keeper's, paced and counted together.
  const calls = workerBackendCalls(config.site!, telemetry.telemetry?.observeBackendCall);
  const worker = await createWorker({ config, registry, log, connection, telemetry: telemetry.telemetry, version, calls });
  const hostPort = (url: string | undefined) => (url ? [new URL(url).host] : []);
  const prometheus = await startPrometheus({
    dir: join(labDir, 'prometheus'),
    targets: { api: hostPort(api.metricsUrl), worker: hostPort(telemetry.metricsUrl) },
  });
  const running = worker.run();
  // As every worker process: the tenants' log routes a Caddy reload dropped are written back.
  const keeper = keepLogRoutes({ site: config.site, db: registry.db, log, metrics: telemetry.telemetry?.metrics, calls });
  const relayClient = await connectClient({
    address: temporal.address,
    namespace: config.env.TEMPORAL_NAMESPACE,
    taskQueue: config.env.TEMPORAL_TASK_QUEUE,
    codecKey: config.codecKey,
  });
  const relay = relayEvents({ site: config.site, db: registry.db, client: relayClient, log });
  apiStarted(api.url);

  // Sourceable by a shell (values single-quoted: the CA's PEM spans lines); it holds lab secrets, so 0600.
  const shellQuote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  writeFileSync(
    join(labDir, 'site.env'),
    Object.entries({ ...backends.env, API_URL: api.url, TEMPORAL_ADDRESS: temporal.address })
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
  const lines = [
    '',
    fresh ? 'Lab site ready (a new, empty site).' : `Lab site ready (kept in ${labDir}; \`npm start -- --fresh\` starts a new, empty one).`,
    `  API             ${api.url}   (reference: ${api.url}/docs)`,
    `  operator token  ${operatorToken}`,
    `  codec token     ${codecToken}   (decode-only: reads runs in the Temporal UI and CLI, nothing on /v1)`,
    `  Temporal UI     ${temporal.uiUrl}   (payloads decoded through the API's codec endpoint)`,
    `  Temporal        ${temporal.address}   (frontend gRPC, namespace ${config.env.TEMPORAL_NAMESPACE}, for the temporal CLI)`,
    `  Parked runs     ${runListUrl(temporal.uiUrl!, config.env.TEMPORAL_NAMESPACE, PARKED_RUNS_QUERY)}`,
    `                  (${PARKED_RUNS_QUERY}: failures waiting for the repeat of their call; Running, so not under the UI's "Failures")`,
    `  Worker          deployment ${version.deploymentName}, build ${version.buildId} (current: new runs begin on it)`,
    ...(pinnedElsewhere.count > 0
      ? [
          `  ${pinnedElsewhere.count} run(s) are pinned to an earlier build of the lab and wait for a worker of theirs (docs/upgrading.md, "The lab"):`,
          `    temporal workflow list --query 'ExecutionStatus="Running" AND TemporalWorkerDeploymentVersion!="${version.deploymentName}:${version.buildId}"'`,
        ]
      : []),
    `  PowerDNS        DNS on 127.0.0.1:${backends.pdns.dnsPort}; recursor on 127.0.0.1:${backends.recursor.dnsPort}`,
    `  Proxmox (sim)   ${backends.proxmox.server.url}/api2/json`,
    `  MinIO (sim)     ${backends.minio.server.url}`,
    `  Prometheus      ${prometheus.url}   (scrapes ${api.metricsUrl}/metrics and ${telemetry.metricsUrl}/metrics; README "Metrics")`,
    ...(backends.logStore ? [`  Log gateway     ${backends.logStore.endpoint}   (real Caddy; admin API ${backends.logStore.caddy.adminUrl})`] : []),
    '',
    `  export API=${api.url} TOKEN=${operatorToken}`,
    `  export TENANT_API_URL=${api.url} TENANT_API_TOKEN=${operatorToken}   # for tenantctl`,
    `  export TEMPORAL_ADDRESS=${temporal.address} TEMPORAL_NAMESPACE=${config.env.TEMPORAL_NAMESPACE} \\`,
    `         TEMPORAL_CODEC_ENDPOINT=${api.url}/codec TEMPORAL_CODEC_AUTH='Bearer ${codecToken}'`,
    '  then follow the README ("Use the lab"; "Read a run with the temporal CLI"). Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(lines.join('\n'));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nstopping the lab...\n');
    worker.shutdown();
    await running.catch(() => {});
    await Promise.all([keeper?.stop(), relay?.stop()]);
    await Promise.allSettled([
      relayClient.connection.close(),
      api.close(),
      codec.close(),
      registry.close(),
      connection.close(),
      telemetry.close(),
      prometheus.stop(),
    ]);
    await backends.stop();
    await temporal.stop();
    process.exit(0);
  };
  // `on`, not `once`: tsx relays the signal the terminal already sent, and a second one without a
  // handler would end the process mid-stop, orphaning the lab's servers.
  process.off('SIGINT', stopWhileStarting);
  process.off('SIGTERM', stopWhileStarting);
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch(async (err: unknown) => {
  // Interrupted while starting: the start failed because of it, and the interrupt's stop exits.
  if (interrupted) return;
  process.stderr.write(`lab failed: ${err instanceof ConfigError || err instanceof LabDirInUse ? err.message : ((err as Error).stack ?? String(err))}\n`);
  await stopStarted();
  process.exit(1);
});
