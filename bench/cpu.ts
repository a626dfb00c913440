import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds used per component of the site while a bench phase runs, from /proc: shows what a
 * phase is bound by on this machine (every component shares its cores).
 */
export type CpuSnapshot = Map<number, { label: string; ticks: number }>;

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
    snap.set(pid, { label: name, ticks });
  }
  return snap;
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
