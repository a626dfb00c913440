import { makeTelemetryFilterString } from '@temporalio/worker';
import { Registry } from '../../db/registry.js';
import { connectClient, connectWorker } from '../../temporal/connection.js';
import { ensureSiteSchedules } from '../../temporal/schedules.js';
import { ConfigError, type Config } from '../config/env.js';
import { createLogger } from '../api/logger.js';
import { createWorker, WORKER_STOP_BOUND_MS } from './worker.js';
import { runAsVersion, workerVersion } from './deployment.js';
import { bindPorts, releasePorts, workerBackendCalls } from '../../activities/backend-areas.js';
import { armStopBound } from '../config/stop-bound.js';
import { installRuntime, startWorkerTelemetry } from './start-telemetry.js';
import { keepLogRoutes } from './log-route-keeper.js';
import { relayEvents } from './event-relay.js';

/** The worker itself, from its loaded settings: connects, registers workflows and activities, drains on SIGTERM. */
export async function runWorker(config: Config): Promise<void> {
  const log = createLogger(config.env.LOG_LEVEL, 'worker');
  let version;
  try {
    version = workerVersion(config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`worker: ${err.message}\n`);
    process.exit(2);
  }
  // Temporal's own metrics: the Core runtime exports them on a loopback port the worker's /metrics relays.
  const coreMetricsAddress = await installRuntime(
    {
      logger: {
        log: (level, message, meta) =>
          log[level === 'TRACE' ? 'trace' : level === 'DEBUG' ? 'debug' : level === 'WARN' ? 'warn' : level === 'ERROR' ? 'error' : 'info'](
            meta ?? {},
            message,
          ),
        trace: (m, meta) => log.trace(meta ?? {}, m),
        debug: (m, meta) => log.debug(meta ?? {}, m),
        info: (m, meta) => log.info(meta ?? {}, m),
        warn: (m, meta) => log.warn(meta ?? {}, m),
        error: (m, meta) => log.error(meta ?? {}, m),
      },
      telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) } },
    },
    Boolean(config.metrics.worker),
  );
  const telemetry = await startWorkerTelemetry(config, { coreMetricsAddress });
  if (telemetry.metricsUrl) log.info({ url: `${telemetry.metricsUrl}/metrics` }, 'worker metrics listening');
  const registry = new Registry(config.env.DATABASE_URL, log);
  await registry.migrate();
  const connection = await connectWorker({ address: config.env.TEMPORAL_ADDRESS });
  // Bound here, not in createWorker, so they are released once the worker has stopped; their calls
  // paced and counted by this worker's own BackendCalls, which its activities share.
  const calls = config.site && workerBackendCalls(config.site, telemetry.telemetry?.observeBackendCall);
  const ports = config.site && bindPorts(config.site, { calls });
  const worker = await createWorker({
    config,
    registry,
    log,
    connection,
    ports,
    calls,
    workflowBundlePath: process.env.WORKFLOW_BUNDLE,
    telemetry: telemetry.telemetry,
    version,
  });
  const client = await connectClient({
    address: config.env.TEMPORAL_ADDRESS,
    namespace: config.env.TEMPORAL_NAMESPACE,
    taskQueue: config.env.TEMPORAL_TASK_QUEUE,
    codecKey: config.codecKey,
  });
  await ensureSiteSchedules(client, config.env.TEMPORAL_TASK_QUEUE, config.site!);
  // Tenants' log routes a Caddy reload dropped, written back within SITE_LOG_ROUTE_CHECK_INTERVAL.
  const keeper = keepLogRoutes({ site: config.site, db: registry.db, log, metrics: telemetry.telemetry?.metrics, logStore: ports?.logStore });
  // Drift a sweep found, parked runs and runs given up: into the events feed, and to the site's webhook.
  const relay = relayEvents({ site: config.site, db: registry.db, client, log });
  // Worker.run() installs SIGTERM/SIGINT handlers that drain in-flight tasks before it resolves.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => armStopBound(log, WORKER_STOP_BOUND_MS));
  log.info({ taskQueue: config.env.TEMPORAL_TASK_QUEUE }, 'worker running');
  await runAsVersion(worker, { connection: client.connection, namespace: config.env.TEMPORAL_NAMESPACE }, version, {
    stopWhenDrained: config.env.TEMPORAL_WORKER_STOP_WHEN_DRAINED === 'true',
    log,
  });
  await Promise.all([keeper?.stop(), relay?.stop()]);
  // Everything the process opened, so it ends by itself: the broker's control connection kept it alive.
  await Promise.all([ports && releasePorts(ports), connection.close(), client.connection.close(), registry.close(), telemetry.close()]);
  log.info({}, 'worker stopped');
}
