/**
 * Launcher for the real Prometheus (Debian's `prometheus` package) of the lab and the tests: it
 * scrapes the API's and the worker's metrics listeners and evaluates the service's alert rules
 * (docs/observability/alerts.yml). Config and data live under one directory; it listens on port 0
 * of the loopback and says which port it got. No vitest here: `npm start` uses this too.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { terminate, trackChild, untilReady } from './children.js';
import { endingWithParent } from '../../../core/parent-death.js';

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

/** prometheus.yml: the service's alert rules, and one job a target list, scraped every `interval` seconds. */
function configYaml(targets: Record<string, string[]>, interval: number): string {
  return stringify({
    global: { scrape_interval: `${interval}s`, evaluation_interval: `${interval}s` },
    rule_files: [ALERT_RULES],
    scrape_configs: Object.entries(targets).map(([job, hosts]) => ({ job_name: job, static_configs: [{ targets: hosts }] })),
  });
}

export async function startPrometheus(opts: PrometheusOptions): Promise<RunningPrometheus> {
  const owned = !opts.dir;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'prometheus-')));
  await mkdir(join(dir, 'data'), { recursive: true });
  const configFile = join(dir, 'prometheus.yml');
  await writeFile(configFile, configYaml(opts.targets, opts.scrapeIntervalSeconds ?? 5));
  let output = '';
  const child = spawn(
    ...endingWithParent(
      opts.prometheus ?? 'prometheus',
      // Info, for the line naming the address it bound ("Listening on"); the rest is a few lines a day.
      [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'data')}`, '--web.listen-address=127.0.0.1:0', '--log.level=info'],
    ),
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let url: string | undefined;
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-8000);
    url ??= /msg="Listening on" address=(127\.0\.0\.1:\d+)/.exec(output)?.[1]?.replace(/^/, 'http://');
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = trackChild(child);
  const answered = await untilReady(exited, 20_000, 100, async () => {
    const up = url
      ? await fetch(`${url}/-/ready`).then(
          (r) => r.ok,
          () => false,
        )
      : false;
    return up ? 'ready' : undefined;
  });
  const ready = answered === 'ready';
  const stop = () => terminate(child, exited);
  if (!ready || !url) {
    await stop();
    if (owned) await rm(dir, { recursive: true, force: true });
    throw new Error(`prometheus did not start: ${output.trim().split('\n').slice(-5).join(' | ')}`);
  }
  const base = url;
  let stopping: Promise<void> | undefined;
  return {
    url: base,
    dir,
    logTail: () => output,
    async query(expr) {
      const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`);
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
