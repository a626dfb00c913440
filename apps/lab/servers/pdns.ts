/**
 * Launchers for the real PowerDNS Authoritative (4.7, gsqlite3) and Recursor (4.8) the tests and
 * the lab run. Each server gets its own config dir, sockets and data under one directory, and
 * ports of its own on 127.0.0.1, so it never reads /etc/powerdns nor collides with a system instance.
 * No vitest here: `npm start` uses these too.
 */
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepOutput, outputRead, releaseSocketDir, socketDir, trackChild, terminate, untilReady } from './children.js';
import { candidatePort, onSomePort, PortTaken, portsHeld } from '../../../core/listen-port.js';
import { endingWithParent } from '../../../core/parent-death.js';

export interface RunningDnsServer {
  /** Base of the HTTP API, e.g. `http://127.0.0.1:8081/api/v1`. */
  apiUrl: string;
  apiKey: string;
  /** UDP and TCP port of the DNS listener on 127.0.0.1. */
  dnsPort: number;
  /** The directory holding config, database and sockets. */
  dir: string;
  /** The server's process id. */
  pid: number;
  stop(): Promise<void>;
}

export interface PowerDnsOptions {
  /** Keep config and database here (kept on stop, the database reused on the next start). */
  dir?: string;
  pdnsServer?: string;
  /** Ports to try first (the lab's last start's), others when taken. */
  ports?: { dns: number; web: number };
  /** Settings to change or (undefined) leave out: a site set up otherwise, a secondary (e.g. `{ dnsupdate: 'no' }`). */
  settings?: SettingOverrides;
}

/** pdns.conf / recursor.conf lines by name: a value replaces the launcher's, undefined drops it. */
export type SettingOverrides = Record<string, string | undefined>;

export interface RecursorOptions {
  /** Keep config here (kept on stop). */
  dir?: string;
  /** Where queries outside any forward zone go ('ip:port'), sent with recursion desired. */
  forwardDefault?: string[];
  /**
   * DNSSEC mode. The lab has no internet, so validating would turn every private forward zone
   * Bogus; the default skips validation.
   */
  dnssec?: 'off' | 'process-no-validate' | 'process' | 'validate';
  pdnsRecursor?: string;
  /** Ports to try first (the lab's last start's), others when taken. */
  ports?: { dns: number; web: number };
  /** Settings to change or (undefined) leave out, e.g. `{ 'api-config-dir': undefined }`. */
  settings?: SettingOverrides;
}

/** The launcher's settings with the caller's changes: replaced in place, dropped, or added at the end. */
function overridden(lines: string[], overrides: SettingOverrides = {}): string[] {
  const name = (line: string) => line.slice(0, line.indexOf('='));
  const kept = lines
    .filter((l) => !(name(l) in overrides) || overrides[name(l)] !== undefined)
    .map((l) => (name(l) in overrides ? `${name(l)}=${overrides[name(l)]}` : l));
  const present = new Set(lines.map(name));
  const added = Object.entries(overrides).flatMap(([k, v]) => (v === undefined || present.has(k) ? [] : [`${k}=${v}`]));
  return [...kept, ...added];
}

const SCHEMA_CANDIDATES = ['/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql', '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql'];

/** Start pdns_server (gsqlite3, API, RFC 2136 on) and resolve once its API answers. */
export async function startPowerDns(opts: PowerDnsOptions = {}): Promise<RunningDnsServer> {
  const owned = !opts.dir;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'pdns-auth-')));
  await mkdir(join(dir, 'run'), { recursive: true });
  const db = join(dir, 'pdns.sqlite3');
  if (!existsSync(db)) {
    const schema = SCHEMA_CANDIDATES.find((p) => existsSync(p));
    if (!schema) throw new Error('pdns-backend-sqlite3 schema not found; install pdns-backend-sqlite3');
    // The Debian sqlite3 CLI applies the schema (node:sqlite would print an experimental warning).
    try {
      execFileSync('sqlite3', [db, `.read ${schema}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      throw new Error(`could not create the PowerDNS database with the sqlite3 CLI (Debian package sqlite3): ${(e as Error).message}`, { cause: e });
    }
  }
  return launch('pdns_server', opts.pdnsServer ?? '/usr/sbin/pdns_server', dir, owned, opts.ports, ({ dnsPort, webPort, apiKey, sockets }) =>
    overridden(
      [
        'launch=gsqlite3',
        `gsqlite3-database=${db}`,
        // Domain metadata (the update ACL and key binding) lives in the DNSSEC tables.
        'gsqlite3-dnssec=yes',
        // WAL (the backend's default journal) with NORMAL sync: a commit no longer waits for an fsync, and
        // only an OS crash, never a server crash, can lose the last ones. A lab's and a test run's data.
        'gsqlite3-pragma-synchronous=1',
        'local-address=127.0.0.1',
        `local-port=${dnsPort}`,
        ...webserver(webPort),
        'api=yes',
        `api-key=${apiKey}`,
        'dnsupdate=yes',
        // Updates are gated per zone by TSIG-ALLOW-DNSUPDATE; no address is trusted on its own.
        'allow-dnsupdate-from=',
        'guardian=no',
        'daemon=no',
        'write-pid=no',
        'disable-syslog=yes',
        `socket-dir=${sockets}`,
        'security-poll-suffix=',
        'loglevel=4',
      ],
      opts.settings,
    ),
  );
}

/** The server's stop, and a failed start, also remove its short socket folder (`releaseSocketDir`). */
async function releasingSockets(own: string, sockets: string, start: () => Promise<RunningDnsServer>): Promise<RunningDnsServer> {
  let server: RunningDnsServer;
  try {
    server = await start();
  } catch (e) {
    await releaseSocketDir(own, sockets);
    throw e;
  }
  return {
    ...server,
    stop: async () => {
      await server.stop();
      await releaseSocketDir(own, sockets);
    },
  };
}

/** The API's web server, on loopback only: Authoritative and Recursor take the same settings. */
function webserver(port: number): string[] {
  return ['webserver=yes', 'webserver-address=127.0.0.1', `webserver-port=${port}`, 'webserver-allow-from=127.0.0.0/8,::1'];
}

/** Start pdns_recursor with API-managed forward zones and resolve once its API answers. */
export async function startRecursor(opts: RecursorOptions = {}): Promise<RunningDnsServer> {
  const owned = !opts.dir;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'pdns-rec-')));
  const apiDir = join(dir, 'api.d');
  await mkdir(join(dir, 'run'), { recursive: true });
  await mkdir(apiDir, { recursive: true });
  const forwardDefault = opts.forwardDefault?.length ? `.=${opts.forwardDefault.join(';')}` : '';
  return launch('pdns_recursor', opts.pdnsRecursor ?? '/usr/sbin/pdns_recursor', dir, owned, opts.ports, ({ dnsPort, webPort, apiKey, sockets }) =>
    overridden(
      [
        'local-address=127.0.0.1',
        `local-port=${dnsPort}`,
        'allow-from=127.0.0.0/8,::1',
        ...webserver(webPort),
        `api-key=${apiKey}`,
        // The API writes one file per forward zone here and reloads them through include-dir; both
        // settings must name the same directory, and the forward settings must be in this file
        // (not on the command line) for the API's additions to apply.
        `api-config-dir=${apiDir}`,
        `include-dir=${apiDir}`,
        'forward-zones=',
        `forward-zones-recurse=${forwardDefault}`,
        `dnssec=${opts.dnssec ?? 'process-no-validate'}`,
        'daemon=no',
        'write-pid=no',
        'disable-syslog=yes',
        'quiet=yes',
        'threads=1',
        `socket-dir=${sockets}`,
        'security-poll-suffix=',
      ],
      opts.settings,
    ),
  );
}

/** What a server's settings are written with: its ports, its API key and its socket folder. */
interface Launch {
  dnsPort: number;
  webPort: number;
  apiKey: string;
  sockets: string;
}

/** Starts the server on ports it can have, with a new API key and its socket folder, which its stop removes. */
async function launch(
  product: 'pdns_server' | 'pdns_recursor',
  binary: string,
  dir: string,
  ownedDir: boolean,
  preferred: { dns: number; web: number } | undefined,
  settings: (run: Launch) => string[],
): Promise<RunningDnsServer> {
  const apiKey = randomBytes(18).toString('base64url');
  const run = join(dir, 'run');
  const sockets = await socketDir(run, product === 'pdns_server' ? 'pdns.controlsocket' : 'pdns_recursor.controlsocket');
  const configName = product === 'pdns_server' ? 'pdns.conf' : 'recursor.conf';
  // Neither server listens on port 0 and says where: tried on ports, and on others while taken.
  const attempt = async (ports: { dns: number; web: number }): Promise<RunningDnsServer> => {
    await writeFile(join(dir, configName), settings({ dnsPort: ports.dns, webPort: ports.web, apiKey, sockets }).join('\n') + '\n', { mode: 0o600 });
    const child = spawn(...endingWithParent(binary, [`--config-dir=${dir}`]), { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = keepOutput(child, 4000);
    const exited = trackChild(child);
    const apiUrl = `http://127.0.0.1:${ports.web}/api/v1`;
    // Our API key answered proves the web server is this one; a DNS port another process holds ends it.
    const ready = await waitForApi(apiUrl, apiKey, child.pid!, ports.dns, exited, 15_000);
    if (ready === 'ready') {
      let stopping: Promise<void> | undefined;
      // A server that dies under a running site leaves its API refusing (a fault proxy in front then
      // answers 502): said here with its last lines, so the failure that follows names its cause.
      void exited.then(async (code) => {
        if (stopping) return;
        await outputRead(child);
        const lines = output().trim().split('\n').slice(-5).join(' | ');
        process.stderr.write(`${product} (pid ${child.pid}, API ${apiUrl}) exited unexpectedly (${code ?? child.signalCode}): ${lines}\n`);
      });
      return {
        apiUrl,
        apiKey,
        dnsPort: ports.dns,
        dir,
        pid: child.pid!,
        stop: () =>
          (stopping ??= (async () => {
            await terminate(child, exited);
            if (ownedDir) await rm(dir, { recursive: true, force: true });
          })()),
      };
    }
    await terminate(child, exited);
    await outputRead(child);
    const why = `${product} did not start (${ready}): ${output().trim().split('\n').slice(-5).join(' | ')}`;
    if (ready === 'taken' || /address already in use/i.test(output())) throw new PortTaken(why);
    throw new Error(why);
  };
  return releasingSockets(run, sockets, async () => {
    try {
      return await onSomePort((port, i) => attempt(i === 0 && preferred ? preferred : { dns: port, web: candidatePort() }), { tries: 5 });
    } catch (e) {
      if (ownedDir) await rm(dir, { recursive: true, force: true });
      throw e;
    }
  });
}

/**
 * Ready once our API key is answered and the DNS port's listener is this process's. Both are
 * looked at until they hold: the API can answer before the kernel's socket table shows the DNS
 * listener (a start under CI load failed "ready" when the table was read once).
 */
async function waitForApi(
  apiUrl: string,
  apiKey: string,
  pid: number,
  dnsPort: number,
  exited: Promise<number | null>,
  timeoutMs: number,
): Promise<'ready' | 'taken' | 'exited' | 'timeout'> {
  return untilReady(exited, timeoutMs, 50, async () => {
    try {
      const res = await fetch(`${apiUrl}/servers/localhost`, { headers: { 'X-API-Key': apiKey }, signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (!res.ok) return undefined;
    } catch {
      return undefined; // not listening yet
    }
    const held = await portsHeld(pid, [dnsPort]);
    if (held === 'other') return 'taken';
    return held === 'mine' ? 'ready' : undefined;
  });
}
