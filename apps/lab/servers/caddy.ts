/**
 * Launcher for the real Caddy (Debian's `caddy` package) as the log store's token gateway: the
 * admin API on one loopback port, the `logs` server on another, plain HTTP (no certificates in the
 * lab). It starts with the site's bootstrap config, whose only route refuses everything with 401;
 * the service then writes each tenant's routes through the admin API. Config, autosave and data
 * live under one directory (XDG_CONFIG_HOME / XDG_DATA_HOME), so the machine's own Caddy state is
 * never read nor touched. No vitest here: `npm start` uses this too.
 *
 * `restart({ resume })` stops and starts the same Caddy on the same ports: without `resume` it
 * loads the bootstrap config again and every route written through the admin API is gone; with
 * it (`caddy run --resume`) it loads the autosaved config (docs/production.md says why it matters).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '../../../backends/caddy/routes.js';
import { candidatePort, portsHeld } from '../../../core/listen-port.js';
import { trackChild, untilReady } from './children.js';
import { endingWithParent } from '../../../core/parent-death.js';

export interface RunningCaddy {
  /** The admin API, e.g. `http://127.0.0.1:2019`. */
  adminUrl: string;
  /** The `logs` server tenants ship to and read from. */
  url: string;
  /** The server name under apps.http.servers. */
  server: string;
  dir: string;
  /** The last few KB Caddy logged, for diagnosing a failed test. */
  logTail(): string;
  restart(opts: { resume: boolean }): Promise<void>;
  stop(): Promise<void>;
}

export interface CaddyOptions {
  caddy?: string;
  /** Keep config and autosave here (kept on stop). Default: a fresh temp dir, removed on stop. */
  dir?: string;
  server?: string;
  /** The ports to try first (a test's: ports another Caddy holds); others when they are taken. */
  ports?: { admin: number; logs: number };
  /**
   * Start from the config Caddy autosaved in `dir` (the routes written through the admin API), when
   * there is one, instead of the bootstrap: the lab's gateway across restarts. Its listeners are
   * moved to the ports chosen now; `rewrite` may edit the rest (e.g. an upstream that moved).
   */
  resume?: { rewrite?: (config: string) => string };
}

/** The site's starting gateway config: one server whose only route refuses everything with 401. */
export function bootstrapConfig(server: string, adminPort: number, port: number): JsonObject {
  return {
    admin: { listen: `127.0.0.1:${adminPort}` },
    logging: { logs: { default: { level: 'WARN' } } },
    apps: {
      http: {
        servers: {
          [server]: {
            listen: [`127.0.0.1:${port}`],
            automatic_https: { disable: true },
            routes: [
              {
                '@id': 'svc-logs-unauthorized',
                handle: [
                  {
                    handler: 'static_response',
                    status_code: 401,
                    headers: { 'WWW-Authenticate': ['Bearer realm="logs"'], 'Content-Type': ['text/plain; charset=utf-8'] },
                    body: 'unauthorized\n',
                  },
                ],
              },
            ],
          },
        },
      },
    },
  };
}

/** An autosaved config with its admin API and `server`'s listener moved to these ports. */
function resumedConfig(text: string, server: string, adminPort: number, port: number): JsonObject {
  const config = JSON.parse(text) as { admin?: { listen?: string }; apps?: { http?: { servers?: Record<string, { listen?: string[] }> } } };
  config.admin = { ...config.admin, listen: `127.0.0.1:${adminPort}` };
  const s = config.apps?.http?.servers?.[server];
  if (s) s.listen = [`127.0.0.1:${port}`];
  return config as JsonObject;
}

export async function startCaddy(opts: CaddyOptions = {}): Promise<RunningCaddy> {
  const owned = !opts.dir;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'caddy-')));
  await mkdir(dir, { recursive: true });
  const server = opts.server ?? 'logs';
  const configFile = join(dir, 'bootstrap.json');
  let output = '';
  let child: { process: ChildProcess; exited: Promise<number | null> } | undefined;
  let ports = { admin: 0, logs: 0 };

  async function launch(resume: boolean): Promise<'ready' | string> {
    const args = ['run', '--config', configFile, ...(resume ? ['--resume'] : [])];
    const proc = spawn(...endingWithParent(opts.caddy ?? 'caddy', args), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir },
    });
    const keep = (b: Buffer) => {
      output = (output + b.toString()).slice(-8000);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    const exited = trackChild(proc);
    child = { process: proc, exited };
    return untilReady(exited, 15_000, 50, async () => {
      // Ready when the admin API answers and the logs server serves its routes.
      const admin = await fetch(`http://127.0.0.1:${ports.admin}/config/`).then(
        (r) => r.ok,
        () => false,
      );
      const logs =
        admin &&
        (await fetch(`http://127.0.0.1:${ports.logs}/`).then(
          () => true,
          () => false,
        ));
      // Ready when this process listens on both ports. Caddy binds with SO_REUSEPORT: a parallel
      // lab's Caddy given the same free port binds it too, silently, and the kernel then splits
      // connections between the two (one lab's routes written into the other's gateway). Two
      // listeners on a port: start again on other ports.
      if (logs) {
        const held = await portsHeld(proc.pid!, [ports.admin, ports.logs]);
        if (held === 'other') return 'port shared with another process';
        if (held === 'mine') return 'ready';
      }
      return undefined;
    });
  }

  async function terminate(): Promise<void> {
    if (!child) return;
    const { process: proc, exited } = child;
    child = undefined;
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  let started: string = 'not started';
  // Caddy does not say which port it got for 0: tried on ports, and on others while they are taken.
  for (let attempt = 0; attempt < 5 && started !== 'ready'; attempt++) {
    ports = attempt === 0 && opts.ports ? opts.ports : { admin: candidatePort(), logs: candidatePort() };
    const saved = opts.resume ? await readFile(join(dir, 'config', 'caddy', 'autosave.json'), 'utf8').catch(() => undefined) : undefined;
    const config = saved
      ? resumedConfig(opts.resume?.rewrite ? opts.resume.rewrite(saved) : saved, server, ports.admin, ports.logs)
      : bootstrapConfig(server, ports.admin, ports.logs);
    await writeFile(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
    started = await launch(false);
    if (started !== 'ready') await terminate();
  }
  if (started !== 'ready') {
    if (owned) await rm(dir, { recursive: true, force: true });
    throw new Error(`caddy did not start (${started}): ${output.trim().split('\n').slice(-5).join(' | ')}`);
  }

  let stopping: Promise<void> | undefined;
  return {
    adminUrl: `http://127.0.0.1:${ports.admin}`,
    url: `http://127.0.0.1:${ports.logs}`,
    server,
    dir,
    logTail: () => output,
    async restart({ resume }) {
      await terminate();
      const again = await launch(resume);
      if (again !== 'ready') throw new Error(`caddy did not restart (${again}): ${output.trim().split('\n').slice(-5).join(' | ')}`);
    },
    stop: () =>
      (stopping ??= (async () => {
        await terminate();
        if (owned) await rm(dir, { recursive: true, force: true });
      })()),
  };
}
