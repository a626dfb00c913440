import { spawn, type ChildProcess } from 'node:child_process';
import { releaseSocketDir, socketDir, trackChild } from './children.js';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onSomePort, PortTaken, portsHeld } from '../../../core/listen-port.js';
import { endingWithParent } from '../../../core/parent-death.js';

/**
 * Real Kea for tests and the lab: kea-dhcp4 (Debian `kea-dhcp4-server`, 2.2) with its own
 * config, lease file and control socket in one directory, and kea-ctrl-agent on an HTTP port of
 * its own in front of it, which is what the router exposes in production. No interface is
 * configured (`"interfaces": []`), so the server opens no DHCP socket and needs no privilege;
 * the control channel, config-get/config-set/config-write and the reservations work the same.
 *
 * kea-dhcp4 is started with its config file, so `config-write` without a filename rewrites
 * that file, and a restart reads back what was written (the router's persistence).
 */
export interface KeaSubnet {
  id: number;
  subnet: string;
  /** `a.b.c.d-e.f.g.h` or CIDR, as Kea takes them. */
  pools?: string[];
}

export interface StartKeaOptions {
  /** Kept when given (a restart reads its config back); a fresh temp dir otherwise, removed at stop. */
  dir?: string;
  subnets: KeaSubnet[];
  /** HTTP basic auth on the control agent (both or neither). */
  authUser?: string;
  authPassword?: string;
  /** Control agent port to try first (the lab's last start's); another when it is taken. */
  port?: number;
}

export interface RunningKea {
  controlUrl: string;
  dir: string;
  /** kea-dhcp4's config file, the target of `config-write`. */
  configFile: string;
  /** Stop both daemons and start them again from the files in `dir`. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

function dhcp4Config(dir: string, socket: string, subnets: KeaSubnet[]) {
  return {
    Dhcp4: {
      'interfaces-config': { interfaces: [] },
      'control-socket': { 'socket-type': 'unix', 'socket-name': socket },
      'lease-database': { type: 'memfile', name: join(dir, 'leases4.csv'), 'lfc-interval': 0 },
      'valid-lifetime': 3600,
      subnet4: subnets.map((s) => ({
        id: s.id,
        subnet: s.subnet,
        pools: (s.pools ?? []).map((pool) => ({ pool })),
        reservations: [],
      })),
      loggers: [{ name: 'kea-dhcp4', output_options: [{ output: join(dir, 'kea-dhcp4.log') }], severity: 'INFO' }],
    },
  };
}

function agentConfig(dir: string, socket: string, port: number, opts: StartKeaOptions) {
  return {
    'Control-agent': {
      'http-host': '127.0.0.1',
      'http-port': port,
      ...(opts.authUser !== undefined
        ? { authentication: { type: 'basic', realm: 'kea-lab', clients: [{ user: opts.authUser, password: opts.authPassword ?? '' }] } }
        : {}),
      'control-sockets': { dhcp4: { 'socket-type': 'unix', 'socket-name': socket } },
      loggers: [{ name: 'kea-ctrl-agent', output_options: [{ output: join(dir, 'kea-ctrl-agent.log') }], severity: 'INFO' }],
    },
  };
}

async function tail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-8).join('\n');
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startKea(opts: StartKeaOptions): Promise<RunningKea> {
  if (opts.authUser !== undefined && opts.authPassword === undefined) throw new Error('startKea: authUser needs authPassword');
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'kea-')));
  await mkdir(dir, { recursive: true });
  const sockets = await socketDir(dir, 'dhcp4.sock');
  const socket = join(sockets, 'dhcp4.sock');
  const configFile = join(dir, 'kea-dhcp4.json');
  const agentFile = join(dir, 'kea-ctrl-agent.json');
  // An existing config is the router's persisted state: keep it rather than the fresh subnets.
  if (!existsSync(configFile)) await writeFile(configFile, JSON.stringify(dhcp4Config(dir, socket, opts.subnets), null, 2));
  let port = 0;
  let controlUrl = '';
  // Kea puts pid and logger lock files under these; the defaults are system dirs.
  const env = { ...process.env, KEA_PIDFILE_DIR: dir, KEA_LOCKFILE_DIR: dir };

  let dhcp4: ChildProcess | undefined;
  let agent: ChildProcess | undefined;
  let spawnFailure: Error | undefined;
  /** The last of what each daemon wrote to stderr. */
  const said = new WeakMap<ChildProcess, string>();

  async function waitReady(): Promise<void> {
    const auth = opts.authUser !== undefined ? { authorization: `Basic ${Buffer.from(`${opts.authUser}:${opts.authPassword}`).toString('base64')}` } : {};
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let last = '';
    while (Date.now() < deadline) {
      if (spawnFailure) throw new Error(`startKea: ${spawnFailure.message} (is Debian kea-dhcp4-server / kea-ctrl-agent installed?)`);
      for (const [name, child] of [
        ['kea-dhcp4', dhcp4],
        ['kea-ctrl-agent', agent],
      ] as const) {
        if (child && child.exitCode !== null) {
          // Its log file, and what it wrote to stderr: a daemon that fails before its loggers are
          // set writes there alone (CI met an agent's exit 1 with an empty log).
          const log = [await tail(join(dir, `${name}.log`)), said.get(child)?.trim()].filter(Boolean).join('\n');
          if (name === 'kea-ctrl-agent' && /address already in use/i.test(log)) throw new PortTaken(log);
          throw new Error(`startKea: ${name} exited with ${child.exitCode}:\n${log}`);
        }
      }
      // Another agent on the port (a parallel lab's) answers version-get as well as this one would.
      const held = agent?.pid === undefined ? 'not yet' : await portsHeld(agent.pid, [port]);
      if (held === 'other') throw new PortTaken(`another process listens on ${port}`);
      if (held === 'not yet') {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      try {
        const res = await fetch(controlUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          body: JSON.stringify({ command: 'version-get', service: ['dhcp4'] }),
          signal: AbortSignal.timeout(1000),
        });
        const body = (await res.json()) as Array<{ result: number; text?: string }>;
        if (body[0]?.result === 0) return;
        last = body[0]?.text ?? `status ${res.status}`;
      } catch (e) {
        last = (e as Error).message;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`startKea: not ready after ${READY_TIMEOUT_MS} ms (${last})`);
  }

  async function start(): Promise<void> {
    spawnFailure = undefined;
    const spawnDaemon = (bin: string, file: string) => {
      const child = spawn(...endingWithParent(bin, ['-c', file]), { env, stdio: ['ignore', 'ignore', 'pipe'] });
      // Killed when this process exits, as every lab server is: a lab that failed once left Kea
      // running on its pid file, and the next lab's Kea refused to start.
      void trackChild(child);
      said.set(child, '');
      child.stderr?.on('data', (d: Buffer) => said.set(child, (said.get(child)! + d.toString()).slice(-2000)));
      child.once('error', (e) => {
        spawnFailure = e;
      });
      return child;
    };
    dhcp4 = spawnDaemon('kea-dhcp4', configFile);
    agent = spawnDaemon('kea-ctrl-agent', agentFile);
    try {
      await waitReady();
    } catch (e) {
      await stopBoth();
      throw e;
    }
  }

  async function stopBoth(): Promise<void> {
    await Promise.all([agent, dhcp4].filter((c): c is ChildProcess => !!c).map(stopProcess));
    agent = undefined;
    dhcp4 = undefined;
  }

  try {
    await onSomePort(
      async (p) => {
        port = p;
        controlUrl = `http://127.0.0.1:${port}/`;
        await writeFile(agentFile, JSON.stringify(agentConfig(dir, socket, port, opts), null, 2));
        await start();
      },
      { first: opts.port },
    );
  } catch (e) {
    await releaseSocketDir(dir, sockets);
    if (ownDir) await rm(dir, { recursive: true, force: true });
    throw e;
  }

  return {
    controlUrl,
    dir,
    configFile,
    async restart() {
      await stopBoth();
      await start();
    },
    async stop() {
      await stopBoth();
      await releaseSocketDir(dir, sockets);
      if (ownDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
