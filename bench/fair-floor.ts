import { bundleWorkflowCode } from '@temporalio/worker';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildEntry } from '../test/support/entry-bundles.js';
import { runs } from '../apps/api/runs.js';
import { loadConfig } from '../apps/config/env.js';
import { attemptTenantCreate } from '../contracts/tenant.js';
import { runIds } from '../contracts/ids.js';
import { DEFAULT_PARKED_MS } from '../contracts/attempt.js';
import { connectClient } from '../temporal/connection.js';
import { tenantCreate } from '../workflows/tenant-create.js';
import { shapedCreate } from './floor.js';
import { createShape, type FloorSample } from './floor-activities.js';
import { cpuSeconds, cpuSnapshot, threadSeconds } from './cpu.js';
import { SERVICE_PROCESS_ENV, workerLikeFlags } from './processes.js';
import { Client, Connection } from '@temporalio/client';
import { endingWithParent } from '../core/parent-death.js';

/**
 * The fair floor (issue 32 item 3): the create's exact Temporal shape on a worker built and started
 * as the service's, every activity empty (bench/floor-worker.ts), called as the API calls it
 * (apps/api/runs.ts: update-with-start with the service's start options, through a client with the
 * payload codec). `bare`: the same counts of local activities and activities, no upserts or
 * summaries, on a worker and a client with the SDK's defaults.
 */
export type FloorOptions = 'service' | 'bare';

/** Compiles the floor worker like the service's (one ES module, node_modules imported) and the bare floor's workflows. */
export async function buildFloorWorker(root: string): Promise<{ entry: string; bareBundle: string }> {
  const dir = join(root, 'dist/bench');
  mkdirSync(dir, { recursive: true });
  // As the tests compile the service's entries (test/support/entry-bundles.ts).
  const entry = await buildEntry(root, 'bench/floor-worker.ts', join(dir, 'floor-worker.mjs'));
  const { code } = await bundleWorkflowCode({ workflowsPath: join(root, 'bench/floor-workflows.ts'), logger: quiet });
  const bareBundle = join(dir, 'floor-bare-bundle.js');
  writeFileSync(bareBundle, code);
  return { entry, bareBundle };
}

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

export interface Floor {
  options: FloorOptions;
  /** One create of the floor; its latency in ms. */
  create(name: string): Promise<number>;
  /** The run a create of this name made, and the client that reads its history. */
  runOf(name: string): string;
  client: Client;
  pid: number;
  stop(): Promise<void>;
}

export async function startFairFloor(
  root: string,
  built: { entry: string; bareBundle: string },
  siteEnv: Record<string, string>,
  options: FloorOptions,
  sample: FloorSample,
): Promise<Floor> {
  const taskQueue = `floor-${options}-${Date.now()}`;
  const samplePath = join(root, 'dist/bench', `floor-sample-${process.pid}.json`);
  writeFileSync(samplePath, JSON.stringify(sample));
  const env = {
    ...process.env,
    ...siteEnv,
    FLOOR_TASK_QUEUE: taskQueue,
    FLOOR_OPTIONS: options,
    FLOOR_SAMPLE: samplePath,
    FLOOR_BARE_BUNDLE: built.bareBundle,
    // Its own metrics listener (port 0: nothing here scrapes it): metrics on, as the service worker's are.
    ...(siteEnv.WORKER_METRICS_ADDRESS ? { WORKER_METRICS_ADDRESS: '127.0.0.1:0' } : {}),
  };
  // Started as the service's worker is: the same heap bounds.
  // `BENCH_FLOOR_FLAGS=--cpu-prof` to profile it beside the worker (`BENCH_WORKER_FLAGS`).
  const child = spawn(...endingWithParent(process.execPath, [...workerLikeFlags('BENCH_FLOOR_FLAGS'), built.entry]), {
    env: { ...SERVICE_PROCESS_ENV, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`floor worker (${options}) exited ${code}`)));
  });
  const config = loadConfig(siteEnv);
  const settings = { address: config.env.TEMPORAL_ADDRESS, namespace: config.env.TEMPORAL_NAMESPACE, taskQueue, codecKey: config.codecKey };
  const client: Client =
    options === 'service'
      ? await connectClient(settings)
      : new Client({ connection: await Connection.connect({ address: settings.address }), namespace: settings.namespace });
  const viaApi = runs(client, taskQueue);
  const steps = sample.prepared.kind === 'proceed' ? sample.prepared.steps.length : 0;
  const runOf = (name: string) => (options === 'service' ? runIds.tenantCreate(`${taskQueue}-${name}`) : `${taskQueue}-${name}`);
  return {
    options,
    runOf,
    client,
    pid: child.pid!,
    async create(name) {
      const t0 = performance.now();
      if (options === 'service') {
        const workflowId = runOf(name);
        await viaApi.attempt(tenantCreate, attemptTenantCreate, { workflowId, args: [{ name, parkedTimeoutMs: DEFAULT_PARKED_MS }], tenant: name }, { name });
      } else {
        // The same counts of local activities and activities as a recorded create (createShape).
        await shapedCreate(client, taskQueue, runOf(name), createShape(steps));
      }
      return performance.now() - t0;
    },
    async stop() {
      await client.connection.close();
      await stopChild(child);
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(t);
}

/** 62 creates by 8 callers: seconds, errors, and CPU seconds of the named processes and the servers. */
export async function fillOf(create: (name: string) => Promise<unknown>, prefix: string, known: Record<number, string>) {
  const before = cpuSnapshot(known, process.pid);
  const names = Array.from({ length: 62 }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        await create(name).catch((err: unknown) => {
          errors++;
          process.stderr.write(`${prefix} fill: ${String(err)}\n`);
        });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const after = cpuSnapshot(known, process.pid);
  return { seconds, errors, cpu: cpuSeconds(before, after), threads: threadSeconds(before, after) };
}
