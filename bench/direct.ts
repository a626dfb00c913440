import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildEntry } from '../test/support/entry-bundles.js';
import type { DirectCreate } from './direct-steps.js';
import { SERVICE_PROCESS_ENV, workerLikeFlags } from './processes.js';
import { endingWithParent } from '../core/parent-death.js';

/** The direct reference: the create's steps in a process of their own (bench/direct-worker.ts). */
export interface Direct {
  create(name: string): Promise<DirectCreate>;
  pid: number;
  close(): Promise<void>;
}

/** Compiles the direct steps' process as the floor worker is compiled (one ES module). */
export function buildDirectWorker(root: string): Promise<string> {
  return buildEntry(root, 'bench/direct-worker.ts', join(root, 'dist/bench/direct-worker.mjs'));
}

/** Starts the direct steps' process on the site's environment; resolves once it is ready. */
export async function startDirect(entry: string, env: Record<string, string>): Promise<Direct> {
  // The worker's young- and old-generation bounds;
  // `BENCH_DIRECT_FLAGS=--cpu-prof` to profile it beside the worker (`BENCH_WORKER_FLAGS`).
  const child = spawn(...endingWithParent(process.execPath, [...workerLikeFlags('BENCH_DIRECT_FLAGS'), entry]), {
    env: { ...SERVICE_PROCESS_ENV, ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map<number, { resolve: (c: DirectCreate) => void; reject: (e: Error) => void }>();
  let ready: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      // A create still waiting would wait for ever: it fails, naming the process's end.
      for (const w of waiting.values()) w.reject(new Error(`direct steps process exited (${child.exitCode})`));
      waiting.clear();
      resolve();
    }),
  );
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const msg = JSON.parse(line) as { ready?: true; id: number; error?: string } & DirectCreate;
    if (msg.ready) return ready();
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.error !== undefined) w?.reject(new Error(msg.error));
    else w?.resolve(msg);
  });
  await Promise.race([started, exited.then(() => Promise.reject(new Error(`direct steps process exited (${child.exitCode})`)))]);
  let next = 0;
  return {
    pid: child.pid!,
    create: (name) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.stdin!.write(`${JSON.stringify({ id, name })}\n`);
      }),
    close: async () => {
      child.stdin!.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}
