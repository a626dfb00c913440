import type { WorkerDeploymentVersion } from '@temporalio/common';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createActivities, type Activities } from '../../activities/index.js';
import { FORMER_ACTIVITY_NAMES } from '../../contracts/compatibility.js';
import type { BackendPorts } from '../../activities/backend-areas.js';
import type { Registry } from '../../db/registry.js';
import { dataConverter } from '../../temporal/data-converter.js';
import type { Config } from '../config/env.js';
import { sealKeys } from '../config/keys.js';
import { bindPorts, workerBackendCalls } from '../../activities/backend-areas.js';
import type { BackendCalls } from '../../backends/http/calls.js';
import { workerTelemetryOptions, type WorkerTelemetry } from './telemetry.js';
import { tracedBundlePath } from './workflow-interceptor-modules.js';
import { sandboxOptions } from './sandbox-watchdog.js';

const require = createRequire(import.meta.url);

export interface WorkerParts {
  config: Config;
  registry: Registry;
  log: Logger;
  connection: NativeConnection;
  /** Adapters to use; bound from the site configuration when absent. */
  ports?: BackendPorts;
  /**
   * The pacing and telemetry the given `ports` were bound with (`workerBackendCalls`), which the
   * activities' own backend calls share; made here from the site and `telemetry` when absent.
   */
  calls?: BackendCalls;
  /**
   * A pre-built workflow bundle (production, tests); bundled from source when absent. With tracing
   * on, the traced bundle beside it (scripts/build-workflow-bundle.ts) is loaded instead.
   */
  workflowBundlePath?: string;
  backendTimeoutMs?: number;
  /** Metrics and traces (apps/worker/telemetry.ts); off when absent. */
  telemetry?: WorkerTelemetry;
  /**
   * The Worker Deployment version it runs (apps/worker/deployment.ts): every run it begins is
   * pinned to it, to its end. Unversioned when absent (the bench's floor, the workflow tests).
   */
  version?: WorkerDeploymentVersion;
}

export function workflowsPath(): string {
  try {
    return require.resolve('../../workflows/index.js');
  } catch {
    return require.resolve('../../workflows/index.ts');
  }
}

/** Builds the worker: workflows from the bundle, activities from injected adapters. */
export async function createWorker(parts: WorkerParts): Promise<Worker> {
  const site = parts.config.site;
  if (!site) throw new Error('the worker needs a configured site (SITE_DOMAIN and the core SITE_* settings)');
  const calls = parts.calls ?? workerBackendCalls(site, parts.telemetry?.observeBackendCall);
  const activities = createActivities({
    site,
    db: parts.registry.db,
    ownConnection: parts.registry.ownConnection,
    keys: sealKeys(site),
    log: parts.log,
    ports: parts.ports ?? bindPorts(site, { timeoutMs: parts.backendTimeoutMs, calls }),
    calls,
  });
  return Worker.create({ ...serviceWorkerOptions(parts), activities: withFormerNames(activities) });
}

/** How long a stopping worker lets its running activities finish before it cancels them. */
export const SHUTDOWN_GRACE_MS = 10_000;
/**
 * How long a stopping worker waits for its cancelled activities before it gives up on them: an
 * activity that does not heed its cancellation no longer holds a worker run in another process's
 * stop (the lab's) for ever.
 */
export const SHUTDOWN_FORCE_MS = SHUTDOWN_GRACE_MS + 5_000;
/** The worker process's stop bound: the grace, then the cancelled activities' end and its own teardown. */
export const WORKER_STOP_BOUND_MS = SHUTDOWN_GRACE_MS + 10_000;

/**
 * Everything of the service's worker but its activities: the workflows, the data converter with
 * the payload codec, the interceptors and sinks, the limits. The bench's fair floor runs the same
 * options with empty activities (bench/floor-worker.ts).
 */
export function serviceWorkerOptions(parts: Pick<WorkerParts, 'config' | 'connection' | 'workflowBundlePath' | 'telemetry' | 'version'>): WorkerOptions {
  const tracing = Boolean(parts.telemetry?.tracing);
  const bundle: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> = parts.workflowBundlePath
    ? { workflowBundle: { codePath: bundleFor(parts.workflowBundlePath, tracing) } }
    : { workflowsPath: workflowsPath() };
  return {
    connection: parts.connection,
    namespace: parts.config.env.TEMPORAL_NAMESPACE,
    taskQueue: parts.config.env.TEMPORAL_TASK_QUEUE,
    ...bundle,
    dataConverter: dataConverter(parts.config.codecKey),
    ...workerTelemetryOptions(parts.telemetry, { fromSource: !parts.workflowBundlePath }),
    shutdownGraceTime: SHUTDOWN_GRACE_MS,
    shutdownForceTime: SHUTDOWN_FORCE_MS,
    // Bounded cache of running workflows: above what runs at once (a sweep's 8 children at a time
    // and its parent, 8 callers' creates), not every parked object's run, which a wake replays.
    // Beside other work 200 held the full-site sweep's worker at 313-315 MB and 64 at 294-298;
    // alone at a later commit 64 peaked at 317 (docs/performance.md). The default scales with the
    // machine's memory.
    maxCachedWorkflows: 64,
    // A step heartbeats every second, but Core sends heartbeats at most every 0.8 × the heartbeat
    // timeout: 4 s of 5, leaving a loaded server 1 s before it fails a live attempt. Three attempts
    // of a slow step lost that way are a 502 on a healthy site. Sent each second, a heartbeat
    // can be 4 s late; a dead worker is still noticed at the 5 s timeout.
    maxHeartbeatThrottleInterval: '1s',
    ...sandboxOptions(),
    // Pinned: a run ends on the code it began with, so a release changes workflow code with no
    // patch for the runs in flight; each run is bounded (a parked one by PARKED_RUN_TIMEOUT).
    ...(parts.version ? { workerDeploymentOptions: { useWorkerVersioning: true, version: parts.version, defaultVersioningBehavior: 'PINNED' } } : {}),
  };
}

/** A run of an earlier release that replays here calls some activities by their former names (contracts/compatibility.ts). */
function withFormerNames(activities: Activities): Record<string, unknown> {
  const all: Record<string, unknown> = { ...activities };
  for (const [former, { now }] of Object.entries(FORMER_ACTIVITY_NAMES)) all[former] = activities[now];
  return all;
}

/** The bundle to load: the traced one when tracing is on, refused clearly when it was not built. */
function bundleFor(bundlePath: string, tracing: boolean): string {
  if (!tracing) return bundlePath;
  const traced = tracedBundlePath(bundlePath);
  if (!existsSync(traced)) {
    throw new Error(
      `tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT) but the traced workflow bundle ${traced} is missing; build both with scripts/build-workflow-bundle.ts`,
    );
  }
  return traced;
}
