/**
 * The worker process's metrics and traces: the step and backend-call metrics (prom-client), the
 * Temporal Core runtime's own Prometheus exporter, both served on WORKER_METRICS_ADDRESS, and the
 * OTLP tracer when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 *
 * The Core runtime's exporter listens on a loopback port of its own (it is configured when the
 * runtime is installed, before anything connects); the worker's `/metrics` appends what it
 * answers, so Prometheus scrapes one address per worker.
 */
import { Context } from '@temporalio/activity';
import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import { onSomePort, PortTaken } from '../../core/listen-port.js';
import { STEP_ACTIVITY_TYPES } from '../../core/step-table.js';
import { ConfigError, type Config } from '../config/env.js';
import { createWorkerMetrics } from '../telemetry/metrics.js';
import { serveMetrics, type RunningMetrics } from '../telemetry/metrics-server.js';
import { startTracing } from '../telemetry/tracing.js';
import type { WorkerTelemetry } from './telemetry.js';
import type { BackendCallObserver } from '../../backends/http/telemetry.js';

export interface RunningWorkerTelemetry {
  telemetry: WorkerTelemetry;
  /** Where Prometheus scrapes this worker; absent when WORKER_METRICS_ADDRESS is unset. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/**
 * The Core runtime's metrics options (Runtime.install's `telemetryOptions.metrics`) for a worker
 * whose metrics are on: Prometheus names and units (`_total`, seconds) on `bindAddress`.
 */
export function coreMetricsOptions(bindAddress: string): NonNullable<RuntimeOptions['telemetryOptions']>['metrics'] {
  return { prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true } };
}

/**
 * Installs the process's Core runtime, with its Prometheus exporter on a loopback port when
 * `coreMetrics`; answers the exporter's address. Core binds the address it is given and does not
 * say which port it got for 0, so the install is tried on a port, and on another while the one
 * tried is taken (Core's bind fails the install, which may then be tried again).
 */
export function installRuntime(options: RuntimeOptions, coreMetrics: boolean): Promise<string | undefined> {
  if (!coreMetrics) {
    Runtime.install(options);
    return Promise.resolve(undefined);
  }
  return onSomePort(async (port) => {
    const address = `127.0.0.1:${port}`;
    try {
      Runtime.install({ ...options, telemetryOptions: { ...options.telemetryOptions, metrics: coreMetricsOptions(address) } });
    } catch (err) {
      if (/address already in use/i.test(String(err))) throw new PortTaken(String(err));
      throw err;
    }
    return address;
  });
}

export async function startWorkerTelemetry(config: Config, opts: { coreMetricsAddress?: string } = {}): Promise<RunningWorkerTelemetry> {
  const tracing = startTracing({ endpoint: config.env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: 'tenant-provisioning-worker' });
  const at = config.metrics.worker;
  if (!at)
    return {
      telemetry: { tracing },
      close: async () => {
        await tracing?.flush();
      },
    };
  const metrics = createWorkerMetrics(STEP_ACTIVITY_TYPES);
  // Handed to this worker's backend calls where it binds its ports (workerBackendCalls), not installed in a module.
  const observeBackendCall: BackendCallObserver = (backend, result, seconds) => {
    metrics.backendCalls.inc({ backend, result });
    metrics.backendDuration.observe({ backend, result }, seconds);
    metrics.backendCallsByActivity.inc({ activity: currentActivity(), backend });
  };
  const core = opts.coreMetricsAddress;
  const server: RunningMetrics = await serveMetrics(
    metrics.registry,
    at,
    core ? () => fetch(`http://${core}/metrics`, { signal: AbortSignal.timeout(2000) }).then((r) => r.text()) : undefined,
  ).catch((err: NodeJS.ErrnoException) => {
    throw new ConfigError(`WORKER_METRICS_ADDRESS: cannot listen (${err.code ?? 'error'})`);
  });
  return {
    telemetry: { metrics, tracing, observeBackendCall },
    metricsUrl: server.url,
    close: async () => {
      await server.close();
      await tracing?.flush();
    },
  };
}

/** The activity type of the activity this call runs in (its async context), or `none`. */
function currentActivity(): string {
  try {
    return Context.current().info.activityType;
  } catch {
    return 'none';
  }
}
