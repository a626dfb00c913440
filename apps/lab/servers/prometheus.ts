/**
 * Launcher for the real Prometheus (Debian's `prometheus` package) of the lab and the tests: it
 * scrapes the API's and the worker's metrics listeners and evaluates the service's alert rules
 * (docs/observability/alerts.yml). Config and data live under one directory; it listens on a free
 * loopback port. No vitest here: `npm start` uses this too.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../free-port.js';
import { trackChild } from './children.js';

export const ALERT_RULES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/observability/alerts.yml');

export interface RunningPrometheus {
  url: string;
  dir: string;
  logTail(): string;
  /** An instant query through the HTTP API (`/api/v1/query`): the result vector. */
  query(expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  stop(): Promise<void>;
}

export interface PrometheusOptions {
  /** `host:port` of each scrape target, by job name (`api`, `worker`). */
  targets: Record<string, string[]>;
  scrapeIntervalSeconds?: number;
  dir?: string;
  prometheus?: string;
}

function configYaml(targets: Record<string, string[]>, interval: number): string {
  const jobs = Object.entries(targets)
    .map(([job, hosts]) => [`  - job_name: ${job}`, '    static_configs:', `      - targets: [${hosts.map((h) => `'${h}'`).join(', ')}]`].join('\n'))
    .join('\n');
  return [
    'global:',
    `  scrape_interval: ${interval}s`,
    `  evaluation_interval: ${interval}s`,
    'rule_files:',
    `  - '${ALERT_RULES}'`,
    'scrape_configs:',
    jobs,
    '',
  ].join('\n');
}

export async function startPrometheus(opts: PrometheusOptions): Promise<RunningPrometheus> {
  const owned = !opts.dir;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'prometheus-')));
  await mkdir(join(dir, 'data'), { recursive: true });
  const configFile = join(dir, 'prometheus.yml');
  await writeFile(configFile, configYaml(opts.targets, opts.scrapeIntervalSeconds ?? 5));
  let output = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      opts.prometheus ?? 'prometheus',
      [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (b: Buffer) => {
      output = (output + b.toString()).slice(-8000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = trackChild(child);
    let gone = false;
    void exited.then(() => {
      gone = true;
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20_000;
    let ready = false;
    while (!gone && Date.now() < deadline) {
      if (
        await fetch(`${url}/-/ready`).then(
          (r) => r.ok,
          () => false,
        )
      ) {
        ready = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    };
    if (ready) {
      let stopping: Promise<void> | undefined;
      return {
        url,
        dir,
        logTail: () => output,
        async query(expr) {
          const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
          const body = (await res.json()) as {
            status: string;
            error?: string;
            data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
          };
          if (body.status !== 'success') throw new Error(`prometheus query failed: ${body.error ?? res.status}`);
          return body.data?.result ?? [];
        },
        stop: () =>
          (stopping ??= (async () => {
            await stop();
            if (owned) await rm(dir, { recursive: true, force: true });
          })()),
      };
    }
    await stop();
  }
  if (owned) await rm(dir, { recursive: true, force: true });
  throw new Error(`prometheus did not start: ${output.trim().split('\n').slice(-5).join(' | ')}`);
}
