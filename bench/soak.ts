import type { ServiceProcess } from './processes.js';
import { readFileSync } from 'node:fs';

/** Fills and deletes of 30 tenants each, a cycle a time, with the worker's resident set during each. */
export const SOAK = { cycles: 3, tenants: 30, callers: 8 };

export interface SoakCycle {
  /** The worker's largest resident set while the cycle ran (VmRSS, sampled every 100 ms), MB. */
  workerMaxRssMb: number;
  /** Its resident set once the cycle ended. */
  workerEndRssMb: number;
  seconds: number;
  errors: number;
  /** The worker's main-thread JS heap in use and its external memory once the cycle ended (its metrics), MB. */
  workerHeapMb?: number;
  workerExternalMb?: number;
}

/** A gauge of the worker's Prometheus text, MB. */
async function gaugeMb(metricsUrl: string | undefined, name: string): Promise<number | undefined> {
  if (!metricsUrl) return undefined;
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) / 2 ** 20 : undefined;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * Issue 48 item 2: what a worker keeps of the tenants it made and removed. Each cycle creates 30
 * tenants by 8 callers and deletes them again; a bounded worker's resident set stays within 10 %
 * of the first cycle's after it (caches warm in the first). Deleting frees the indexes again, so
 * the cycles could go on for ever on a site of 62.
 */
export async function soak(
  site: { url: string; token: string; worker: ServiceProcess; workerMetricsUrl?: string; backends: { proxmox: { removeTenantNetwork(name: string): void } } },
  run: number,
): Promise<SoakCycle[]> {
  const cycles: SoakCycle[] = [];
  const call = async (method: 'POST' | 'DELETE', path: string, body?: unknown) => {
    const r = await fetch(`${site.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${site.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await r.arrayBuffer();
    if (r.status !== (method === 'POST' ? 201 : 204)) process.stderr.write(`soak: ${method} ${path} answered ${r.status}\n`);
    return r.status;
  };
  const pid = site.worker.child.pid!;
  for (let cycle = 0; cycle < SOAK.cycles; cycle++) {
    const names = Array.from({ length: SOAK.tenants }, (_, i) => `s${run}c${cycle}n${i}`);
    let max = rssMb(pid);
    const sampler = setInterval(() => (max = Math.max(max, rssMb(pid))), 100);
    let errors = 0;
    const t0 = performance.now();
    const each = async (work: (name: string) => Promise<boolean>) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: SOAK.callers }, async () => {
          while (next < names.length) if (!(await work(names[next++]!))) errors++;
        }),
      );
    };
    try {
      await each(async (name) => (await call('POST', '/v1/tenants', { name })) === 201);
      // The fabric's network is the operator's to remove before the tenant goes (spec: delete
      // answers 409 while the fabric carries the zone), as the tests' cleanup does.
      await each(async (name) => {
        site.backends.proxmox.removeTenantNetwork(name);
        return (await call('DELETE', `/v1/tenants/${name}`)) === 204;
      });
    } finally {
      clearInterval(sampler);
    }
    cycles.push({
      workerMaxRssMb: max,
      workerEndRssMb: rssMb(pid),
      seconds: (performance.now() - t0) / 1000,
      errors,
      workerHeapMb: await gaugeMb(site.workerMetricsUrl, 'nodejs_heap_size_used_bytes'),
      workerExternalMb: await gaugeMb(site.workerMetricsUrl, 'nodejs_external_memory_bytes'),
    });
    // `BENCH_SOAK_SNAPSHOTS=1` with `BENCH_WORKER_FLAGS=--heapsnapshot-signal=SIGUSR2`: a heap
    // snapshot of the worker after each cycle (written in its working directory), to see what grows.
    if (process.env.BENCH_SOAK_SNAPSHOTS) {
      site.worker.child.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 15_000));
    }
    process.stderr.write(`soak cycle ${cycle + 1}: ${JSON.stringify(cycles.at(-1))}\n`);
  }
  return cycles;
}
