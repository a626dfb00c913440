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
  return undefined;
}

/** `known` names processes by pid (the API, the worker, the bench process with the simulators). */
export function cpuSnapshot(known: Record<number, string>): CpuSnapshot {
  const snap: CpuSnapshot = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const name = label(Number(entry), comm, known);
      if (!name) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      snap.set(Number(entry), { label: name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended between the listing and the read.
    }
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
  return Object.fromEntries(Object.entries(total).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round(v * 100) / 100]));
}
