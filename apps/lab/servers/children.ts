import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/**
 * Resolves once the child's output is read to its end (its pipes closed), or after `ms`. A child's
 * `exit` can come before its last lines are read: a server that exits on a taken port says so in
 * its last line (PowerDNS Recursor's "Address already in use"), and read at `exit` that line was
 * missing, so the start was not tried on another port (`npm start` beside another clone's tests).
 */
export function outputRead(child: ChildProcess, ms = 2000): Promise<void> {
  if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Where a server's UNIX socket goes: `own`, unless that path is too long for a UNIX socket (107
 * bytes: `npm start` in a clone under a long folder name failed with PowerDNS's "not a valid UNIX
 * socket path" and Kea's too-long socket); then a short folder in the temporary directory, named
 * after `own` so the same server finds it again.
 */
export async function socketDir(own: string, socket: string): Promise<string> {
  if (Buffer.byteLength(join(own, socket)) <= 100) return own;
  const short = shortSocketDir(own);
  await mkdir(short, { recursive: true, mode: 0o700 });
  return short;
}

/** The short folder `socketDir` gives the sockets of `own`, named after it so the same server finds it again. */
export const shortSocketDir = (own: string) => join(tmpdir(), `lab-sockets-${createHash('sha256').update(own).digest('hex').slice(0, 12)}`);

/**
 * Removes the short folder `socketDir` made in the temporary directory for `own` (never `own`
 * itself): once its server stopped, its socket is stale, and the next start makes the folder
 * again. Left, every test run in a long path left its PowerDNS', Recursor's and Kea's in /tmp.
 */
export async function releaseSocketDir(own: string, sockets: string): Promise<void> {
  if (sockets !== own) await rm(sockets, { recursive: true, force: true });
}

/** What a server wrote last (stdout and stderr together, its last `chars` characters): a failed start says it. */
export function keepOutput(child: ChildProcess, chars: number): () => string {
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-chars);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

/**
 * Waits for a started server: asks `probe` every `everyMs` until it answers (its answer), the
 * server exits (`exited`) or `timeoutMs` passes (`timeout`). `gone` says whether the server has
 * exited meanwhile, for a probe that a dying server could still pass.
 */
export async function untilReady<A>(
  exited: Promise<number | null>,
  timeoutMs: number,
  everyMs: number,
  probe: (gone: () => boolean) => Promise<A | undefined>,
): Promise<A | 'exited' | 'timeout'> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) return 'exited';
    const answer = await probe(() => gone);
    if (answer !== undefined) return answer;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return 'timeout';
}
