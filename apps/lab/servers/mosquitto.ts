/**
 * Launcher for the real Mosquitto 2 broker with the dynamic-security plugin, as the tests and the
 * lab run it. Everything (config, dynsec JSON, admin password) lives under one directory and the
 * listener takes a port of its own on 127.0.0.1, so the machine's own Mosquitto (1883, /etc/mosquitto)
 * is never read nor touched. Started as a child process (not `-d`) so stop() can end exactly it.
 * No vitest here: `npm start` uses this too.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { keepOutput, outputRead, trackChild, terminate, untilReady } from './children.js';
import { onSomePort, PortTaken, portsHeld } from '../../../core/listen-port.js';
import { endingWithParent } from '../../../core/parent-death.js';

const run = promisify(execFile);

export interface RunningMosquitto {
  host: string;
  port: number;
  /** `mqtt://host:port`, what the dynsec adapter takes. */
  url: string;
  /** The dynsec admin: may publish to `$CONTROL/dynamic-security/#` only. */
  adminUser: string;
  adminPassword: string;
  dir: string;
  /** The last few KB the broker logged (errors, warnings, notices), for diagnosing a failed test. */
  logTail(): string;
  /** Whether the broker process still runs. */
  alive(): boolean;
  stop(): Promise<void>;
}

export interface MosquittoOptions {
  /**
   * Keep config, dynsec JSON and the admin password here; kept on stop, and the accounts it holds
   * are served again on the next start (the lab survives restarts). Default: a fresh temp dir,
   * removed on stop.
   */
  dir?: string;
  mosquitto?: string;
  mosquittoCtrl?: string;
  /** Path of the plugin; default: the Debian package's. */
  dynsecPlugin?: string;
  /** Listen on this port only (e.g. to restart a broker where its clients expect it); default: one of its own. */
  port?: number;
  /** Serve MQTT over TLS (`mqtts://`) with this certificate and key (PEM), as a real site may. */
  tls?: { cert: string; key: string };
}

const PLUGIN_CANDIDATES = [
  '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto_dynamic_security.so',
];
const ADMIN_USER = 'admin';

export async function startMosquitto(opts: MosquittoOptions = {}): Promise<RunningMosquitto> {
  const owned = !opts.dir;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'mosquitto-')));
  await mkdir(dir, { recursive: true });
  const plugin = opts.dynsecPlugin ?? PLUGIN_CANDIDATES.find((p) => existsSync(p));
  if (!plugin) throw new Error('mosquitto_dynamic_security.so not found; install the Debian mosquitto package');

  const dynsecFile = join(dir, 'dynamic-security.json');
  const passwordFile = join(dir, 'admin-password');
  let adminPassword: string;
  if (existsSync(dynsecFile) && existsSync(passwordFile)) {
    adminPassword = (await readFile(passwordFile, 'utf8')).trim();
  } else {
    adminPassword = randomBytes(18).toString('base64url');
    await rm(dynsecFile, { force: true });
    await run(opts.mosquittoCtrl ?? 'mosquitto_ctrl', ['dynsec', 'init', dynsecFile, ADMIN_USER, adminPassword]);
    await writeFile(passwordFile, adminPassword + '\n', { mode: 0o600 });
  }

  // Mosquitto's port 0 is a unix socket: tried on ports, and on others while they are taken.
  const attempt = async (port: number): Promise<RunningMosquitto> => {
    const configFile = join(dir, 'mosquitto.conf');
    const tlsLines: string[] = [];
    if (opts.tls) {
      await writeFile(join(dir, 'server.pem'), opts.tls.cert);
      await writeFile(join(dir, 'server.key'), opts.tls.key, { mode: 0o600 });
      tlsLines.push(`certfile ${join(dir, 'server.pem')}`, `keyfile ${join(dir, 'server.key')}`);
    }
    await writeFile(configFile, brokerConfig(port, tlsLines, plugin, dynsecFile), { mode: 0o600 });
    const child = spawn(...endingWithParent(opts.mosquitto ?? '/usr/sbin/mosquitto', ['-c', configFile]), { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = keepOutput(child, 8000);
    const exited = trackChild(child);
    const ready = await waitForListener(port, child.pid!, exited, Boolean(opts.tls), 10_000);
    if (ready === 'ready') {
      let stopping: Promise<void> | undefined;
      return {
        host: '127.0.0.1',
        port,
        url: `${opts.tls ? 'mqtts' : 'mqtt'}://127.0.0.1:${port}`,
        adminUser: ADMIN_USER,
        adminPassword,
        dir,
        logTail: output,
        alive: () => child.exitCode === null && child.signalCode === null,
        stop: () =>
          (stopping ??= (async () => {
            await terminate(child, exited);
            if (owned) await rm(dir, { recursive: true, force: true });
          })()),
      };
    }
    await terminate(child, exited);
    await outputRead(child);
    const why = `mosquitto did not start (${ready}): ${output().trim().split('\n').slice(-5).join(' | ')}`;
    throw ready === 'taken' || /address already in use/i.test(output()) ? new PortTaken(why) : new Error(why);
  };
  try {
    return await onSomePort(attempt, { first: opts.port, tries: opts.port ? 1 : 5 });
  } catch (e) {
    if (owned) await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

function brokerConfig(port: number, tlsLines: string[], plugin: string, dynsecFile: string): string {
  return [
    `listener ${port} 127.0.0.1`,
    ...tlsLines,
    // One security model for the whole broker: the dynsec plugin decides for every listener.
    'per_listener_settings false',
    'allow_anonymous false',
    `plugin ${plugin}`,
    `plugin_opt_config_file ${dynsecFile}`,
    // As root, mosquitto drops to the `mosquitto` user, which could then not save the dynsec
    // file in this directory; staying the current user keeps it writable.
    `user ${userInfo().username}`,
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'log_type notice',
    '',
  ].join('\n');
}

async function waitForListener(
  port: number,
  pid: number,
  exited: Promise<number | null>,
  tls: boolean,
  timeoutMs: number,
): Promise<'ready' | 'exited' | 'taken' | 'timeout'> {
  return untilReady(exited, timeoutMs, 30, async (gone) => {
    // Another broker on the port (a parallel suite's) answers CONNECT as this one would.
    const held = await portsHeld(pid, [port]);
    if (held === 'other') return 'taken';
    if (held === 'mine' && (await answersMqtt(port, tls))) return gone() ? 'exited' : 'ready';
    return undefined;
  });
}

/** An MQTT 3.1.1 CONNECT with no client id and no credentials: a broker answers it (refused, CONNACK 5). */
const ANONYMOUS_CONNECT = Buffer.from([0x10, 0x0c, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x3c, 0x00, 0x00]);
const CONNACK = 0x20;

/**
 * Whether a broker answers MQTT on the port. A connection alone is no proof: a port found free can
 * be taken by another process before the broker binds it (the broker then exits with "Address
 * already in use"), and the connection reaches that process instead.
 */
function answersMqtt(port: number, tls: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const s = tls ? tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }) : connect({ host: '127.0.0.1', port });
    const done = (answer: boolean) => {
      s.destroy();
      resolve(answer);
    };
    s.setTimeout(1000);
    s.once(tls ? 'secureConnect' : 'connect', () => s.write(ANONYMOUS_CONNECT));
    s.once('data', (b: Buffer) => done(b[0] === CONNACK));
    s.once('timeout', () => done(false));
    s.once('error', () => done(false));
  });
}
