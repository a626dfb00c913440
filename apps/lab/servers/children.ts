import type { ChildProcess } from 'node:child_process';

/**
 * The lab's server processes (PowerDNS, Recursor, Mosquitto): a crashed test run or lab must not
 * leave them behind, so every one started is killed when this process exits.
 */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Tracks a started server until it exits; resolves with its exit code. */
export function trackChild(child: ChildProcess): Promise<number | null> {
  running.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
}

/** Stops a server: SIGTERM, then SIGKILL after 5 s; resolves once it exited. */
export async function terminate(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
