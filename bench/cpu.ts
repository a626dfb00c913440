import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds used per component of the site while a bench phase runs, from /proc: shows what a
 * phase is bound by on this machine (every component shares its cores).
 */
export type CpuSnapshot = Map<number, { label: string; ticks: number; threads?: Map<number, { name: string; ticks: number }> }>;

const TICKS_PER_SECOND = 100;

function label(pid: number, comm: string, known: Record<number, string>): string | undefined {
  if (known[pid]) return known[pid];
  if (comm === 'pdns_server') return 'powerdns';
  if (comm === 'pdns_recursor') return 'recursor';
  if (comm.startsWith('kea')) return 'kea';
  if (comm === 'mosquitto') return 'mosquitto';
  if (comm === 'postgres') return 'postgresql';
  if (comm === 'temporal') return 'temporal dev server';
  if (comm === 'caddy') return 'caddy';
  return undefined;
}

/**
 * `known` names processes by pid (the API, the worker, the bench process with the simulators).
 * `ownedBy`: count only the servers started under this process (the machine may run other labs'
 * PowerDNS or Temporal); PostgreSQL is the machine's one server and is counted whole.
 */
export function cpuSnapshot(known: Record<number, string>, ownedBy?: number): CpuSnapshot {
  const snap: CpuSnapshot = new Map();
  const procs = new Map<number, { comm: string; ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(entry), { comm, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const owned = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; p = procs.get(p)?.ppid, hops++) if (p === ownedBy) return true;
    return false;
  };
  for (const [pid, { comm, ticks }] of procs) {
    const name = label(pid, comm, known);
    if (!name) continue;
    if (ownedBy !== undefined && !known[pid] && name !== 'postgresql' && !owned(pid)) continue;
    snap.set(pid, { label: name, ticks, ...(known[pid] ? { threads: threadTicks(pid) } : {}) });
  }
  return snap;
}

/** A named process's threads by id, with their names (MainThread, WorkerThread, V8Worker, tokio-runtime-w, libuv-worker). */
function threadTicks(pid: number): Map<number, { name: string; ticks: number }> {
  const threads = new Map<number, { name: string; ticks: number }>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        threads.set(Number(tid), { name, ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    // The process ended.
  }
  return threads;
}

/**
 * CPU seconds of each named process's threads between two snapshots, by thread name (a thread that
 * ended between them is not counted): where a process's CPU goes among its JavaScript threads,
 * V8's helpers (the collector's parallel work), Temporal's Rust runtime and libuv's pool.
 */
export function threadSeconds(before: CpuSnapshot, after: CpuSnapshot): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [pid, { label: name, threads }] of after) {
    if (!threads) continue;
    const by: Record<string, number> = {};
    for (const [tid, t] of threads) by[t.name] = (by[t.name] ?? 0) + (t.ticks - (before.get(pid)?.threads?.get(tid)?.ticks ?? 0)) / TICKS_PER_SECOND;
    out[name] = Object.fromEntries(
      Object.entries(by)
        .filter(([, v]) => v > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, Math.round(v * 100) / 100]),
    );
  }
  return out;
}

/** CPU seconds per component between two snapshots, largest first. */
export function cpuSeconds(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const total: Record<string, number> = {};
  for (const [pid, { label: name, ticks }] of after) {
    const used = (ticks - (before.get(pid)?.ticks ?? 0)) / TICKS_PER_SECOND;
    total[name] = (total[name] ?? 0) + used;
  }
  return Object.fromEntries(
    Object.entries(total)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => [k, Math.round(v * 100) / 100]),
  );
}
