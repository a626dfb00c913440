import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { onSomePort, PortTaken, portsHeld } from '../core/listen-port.js';
import { endingWithParent } from '../core/parent-death.js';

/** A service process of the bench, built from dist/ as production runs it, with its peak RSS. */
export interface ServiceProcess {
  child: ChildProcess;
  peakRssMb(): number;
  stop(): Promise<void>;
}

/**
 * The API's heap bound, as the Dockerfile's CMD has it. The bare route of the read comparison runs
 * with it too, so the two differ only in the code that answers.
 */
export const API_FLAGS = ['--max-old-space-size=128'];

/**
 * The worker's heap bound, as docker-compose.yml runs it. The bench's references (the fair floor's
 * worker, the direct steps' process) run with it too, so their CPU is weighed under the same
 * collector pressure as the worker's.
 */
export const WORKER_HEAP_FLAGS = ['--max-old-space-size=192'];

/**
 * What the Dockerfile's ENV gives the service's processes besides NODE_OPTIONS: glibc's malloc arenas
 * bounded to two (the worker's native threads each took one). Given to the bench's references too,
 * and overridden by the bench's own environment.
 */
export const SERVICE_PROCESS_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2' };

/**
 * As the Dockerfile runs the service (NODE_OPTIONS there): small young-generation semi-spaces keep
 * the resident set near the live heap (Node 24 otherwise sizes them from the machine's memory).
 */
const YOUNG_GENERATION_FLAGS = ['--max-semi-space-size=4'];

/** Node flags the bench's environment adds to a process, e.g. `BENCH_WORKER_FLAGS=--cpu-prof` to profile it. */
export function extraFlags(variable: string): string[] {
  return (process.env[variable] ?? '').split(' ').filter(Boolean);
}

/**
 * How a process weighed against the worker runs (the fair floor's worker, the direct steps' process):
 * the worker's young- and old-generation bounds, and the flags the bench's `variable` adds.
 */
export function workerLikeFlags(variable: string): string[] {
  return [...YOUNG_GENERATION_FLAGS, ...WORKER_HEAP_FLAGS, ...extraFlags(variable)];
}

export function startService(entry: string, env: Record<string, string>, flags: string[] = []): ServiceProcess {
  const child = spawn(...endingWithParent(process.execPath, [...YOUNG_GENERATION_FLAGS, ...flags, entry]), {
    env: { ...SERVICE_PROCESS_ENV, ...process.env, ...env },
    // Its log (warnings and errors at the bench's level) beside the bench's own progress: a 503's
    // cause is there and nowhere else.
    stdio: ['ignore', 2, 'inherit'],
  });
  return {
    child,
    // VmHWM is the kernel's own high-water mark of the resident set.
    peakRssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/**
 * A service process listening on a port of its own, which `env(port)` tells it. The service says its
 * address at info only and the bench runs it at warn, so none is read back: the start is tried on a
 * port, and on another when this process is not the one listening there (core/listen-port.ts).
 * Resolves once `ready(port)` does.
 */
export function startListening(
  entry: string,
  env: (port: number) => Record<string, string>,
  flags: string[],
  ready: (port: number) => Promise<void>,
): Promise<{ service: ServiceProcess; port: number }> {
  return onSomePort(async (port) => {
    const service = startService(entry, env(port), flags);
    for (const deadline = Date.now() + 30_000; ;) {
      if (service.child.exitCode !== null || service.child.signalCode !== null) throw new Error(`${entry} exited (${service.child.exitCode})`);
      const held = await portsHeld(service.child.pid!, [port]);
      if (held === 'other') {
        await service.stop();
        throw new PortTaken(`another process listens on ${port}`);
      }
      if (held === 'mine') break;
      if (Date.now() > deadline) {
        await service.stop();
        throw new Error(`${entry} did not listen on ${port} in 30 s`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await ready(port);
    return { service, port };
  });
}
