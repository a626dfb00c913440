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
import { floorActivities, type FloorSample } from './floor-activities.js';

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
