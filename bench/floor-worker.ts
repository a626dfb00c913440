/**
 * The fair floor's worker process (issue 32 item 3): the service's own worker, compiled and started
 * as the service's is (bench/run.ts builds this file into one ES module and runs it with node and
 * the shipped workflow bundle), running the service's `tenantCreate` workflow with the service's
 * options (the data converter with the payload codec, the interceptors and sinks, the limits), and
 * every activity an empty body that answers what the registry or the step answered in a real
 * create (`FLOOR_SAMPLE`, captured by the bench). So a create on this worker makes the same
 * commands, the same search-attribute upserts and activity summaries, and carries payloads of the
 * same size as a real one: what is left is what Temporal and the worker cost.
 *
 * `FLOOR_OPTIONS=bare` runs bench/floor-workflows.ts instead (the same number of local activities
 * and activities, no upserts, no summaries) on a worker with the SDK's defaults: no codec, no
 * interceptors. The difference between the two is what the service's options cost.
 *
 * Configured by the service's own environment (the bench site's), on its own task queue; prints
 * `ready` once it polls.
 */
import { DefaultLogger, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../apps/config/env.js';
import { serviceWorkerOptions } from '../apps/worker/worker.js';
import { installRuntime, startWorkerTelemetry } from '../apps/worker/start-telemetry.js';
import { connectWorker } from '../temporal/connection.js';
import type { Activities } from '../activities/index.js';

/** What a real create's activities answered, for the empty bodies to answer the same. */
export interface FloorSample {
  /** `prepareTenant` with the fabric read: `proceed`, with the steps, index and sealed secrets. */
  prepared: Awaited<ReturnType<Activities['prepareTenant']>>;
  /** `finishAttempt`: the tenant's view and its sealed secrets. */
  finished: Awaited<ReturnType<Activities['finishAttempt']>>;
  /** Each step's outcomes, by activity type. */
  steps: Record<string, unknown>;
  /** `network.observe-indexes`. */
  indexes: unknown;
}

/** The empty activities: each answers the sample, for the tenant it was asked about. */
export function floorActivities(
  sample: FloorSample,
): Record<string, (input?: { name?: string; request?: { name: string }; fabric?: unknown }) => Promise<unknown>> {
  const acts: Record<string, (input?: { name?: string; request?: { name: string }; fabric?: unknown }) => Promise<unknown>> = {
    claimTenant: async () => ({ granted: true }),
    releaseTenant: async () => undefined,
    // What a run writes of its object's life (activities/object-runs.ts): the same two local
    // activities a real create runs, with nothing behind them.
    claimRun: async () => undefined,
    settleRun: async () => undefined,
    // A new name asks for the fabric first, as a real create of a new tenant does.
    prepareTenant: async (input) => (input?.fabric === undefined ? { kind: 'needs-fabric' } : { ...sample.prepared, name: input.request!.name }),
    'network.observe-indexes': async () => sample.indexes,
    finishAttempt: async (input) => ({ ...sample.finished, tenant: { ...sample.finished.tenant, name: input!.name } }),
  };
  for (const [type, outcomes] of Object.entries(sample.steps)) acts[type] = async () => outcomes;
  return acts;
}

async function main(): Promise<void> {
  const taskQueue = process.env.FLOOR_TASK_QUEUE!;
  const config = loadConfig({ ...process.env, TEMPORAL_TASK_QUEUE: taskQueue });
  const bare = process.env.FLOOR_OPTIONS === 'bare';
  // As the service's worker installs its runtime (apps/worker/main.ts): Core's own metrics
  // exported when the worker's metrics are on.
  const coreMetricsAddress = await installRuntime(
    { logger: new DefaultLogger('WARN'), ...(bare ? {} : { telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) } } }) },
    !bare && Boolean(config.metrics.worker),
  );
  const connection = await connectWorker({ address: config.env.TEMPORAL_ADDRESS });
  let worker: Worker;
  if (bare) {
    worker = await Worker.create({
      connection,
      namespace: config.env.TEMPORAL_NAMESPACE,
      taskQueue,
      workflowBundle: { codePath: process.env.FLOOR_BARE_BUNDLE! },
      activities: { noop: async (i: number) => i },
    });
  } else {
    const sample = JSON.parse(readFileSync(process.env.FLOOR_SAMPLE!, 'utf8')) as FloorSample;
    const telemetry = await startWorkerTelemetry(config, { coreMetricsAddress });
    worker = await Worker.create({
      ...serviceWorkerOptions({ config, connection, workflowBundlePath: process.env.WORKFLOW_BUNDLE, telemetry: telemetry.telemetry }),
      activities: floorActivities(sample),
    });
  }
  const running = worker.run();
  process.stdout.write('ready\n');
  await running;
}

await main();
