import { readFile, readdir, readlink } from 'node:fs/promises';

/**
 * Starting a server that cannot listen on port 0 and say which port it got (the Temporal CLI's dev
 * server, Kea's control agent, PowerDNS, Mosquitto, Caddy, the Core runtime's metrics exporter).
 * Whatever can listen on 0 does (the API, the simulators, the metrics listeners) and reads back its
 * address. For the others no port is checked free first: between such a check and the server's own
 * bind any process can take it (a parallel suite did, and the start answered "exited (2)"). The
 * start itself is tried on a port, and on another when the port proves taken: the server said
 * EADDRINUSE, or another process is the one listening there.
 */

/** A start whose port was taken (the server's EADDRINUSE, or another process listening there). */
export class PortTaken extends Error {
  override name = 'PortTaken';
}

const FIRST = 20_000;
const LAST = 32_767;

/**
 * A port to try: random below the kernels' ephemeral ranges (Linux 32768-60999, BSD and macOS
 * 49152-65535), so no outgoing connection is handed it meanwhile; only another listener can hold it.
 */
export function candidatePort(): number {
  return FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
}

/**
 * `start` on `first` when given, else on a candidate port, and on another candidate as long as it
 * throws `PortTaken`; any other failure is the start's own and is thrown as it is. `attempt` counts
 * from 0, for a start that takes more ports than one.
 */
export async function onSomePort<T>(start: (port: number, attempt: number) => Promise<T>, opts: { first?: number; tries?: number } = {}): Promise<T> {
  const tries = opts.tries ?? 8;
  const taken: string[] = [];
  for (let i = 0; i < tries; i++) {
    const port = i === 0 && opts.first ? opts.first : candidatePort();
    try {
      return await start(port, i);
    } catch (e) {
      if (!(e instanceof PortTaken)) throw e;
      taken.push(`${port}: ${e.message}`);
    }
  }
  throw new Error(`every port tried was taken (${taken.join('; ')})`);
}

/**
 * The sockets listening on `port` at 127.0.0.1 or any address, in this network namespace, by inode
 * (Linux's /proc/net/tcp); undefined where the system does not tell.
 */
export async function listenersOn(port: number): Promise<string[] | undefined> {
  const table = await readFile('/proc/net/tcp', 'utf8').catch(() => undefined);
  if (table === undefined) return undefined;
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const local = new Set([`0100007F:${hex}`, `00000000:${hex}`]);
  // Columns: sl, local_address, rem_address, st (0A = LISTEN), tx:rx, tr:when, retrnsmt, uid, timeout, inode.
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => local.has(cols[1]!) && cols[3] === '0A')
    .map((cols) => cols[9]!);
}

/** The socket inodes process `pid` holds open (its /proc/<pid>/fd links `socket:[inode]`). */
async function socketsOf(pid: number): Promise<Set<string>> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return new Set(links.map((l) => /^socket:\[(\d+)\]$/.exec(l)?.[1]).filter((x): x is string => x !== undefined));
}

/**
 * Whether process `pid` is the one listening on each of `ports`: 'mine' once it holds a listener on
 * each and no other process does (and where the system cannot tell: the caller's own probe decides),
 * 'other' when another process listens on one of them, 'not yet' while nobody does.
 */
export async function portsHeld(pid: number, ports: number[]): Promise<'mine' | 'other' | 'not yet'> {
  const listeners = await Promise.all(ports.map(listenersOn));
  if (listeners.some((l) => l === undefined)) return 'mine';
  const own = await socketsOf(pid);
  if (listeners.some((l) => l!.some((inode) => !own.has(inode)))) return 'other';
  return listeners.every((l) => l!.length > 0) ? 'mine' : 'not yet';
}
