import { Agent, request } from 'node:http';
import { percentile } from './stats.js';

export interface OpenLoopRun {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

/**
 * Read latency at a fixed rate, open loop (wrk2's model; Debian has no wrk2): request i is due at
 * t0 + i / rate and is sent then whatever earlier answers did, and its latency is counted from when
 * it was due, not from when it went out. A pause of the server therefore counts against every
 * request it held back, instead of hiding behind a connection that waits for its answer (the
 * closed-loop paced read's coordinated omission).
 */
export async function openLoop(url: string, token: string, opts: { rate: number; seconds: number; maxSockets?: number }): Promise<OpenLoopRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 64 });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const pending: Promise<void>[] = [];
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) non2xx++;
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const t0 = performance.now();
  let i = 0;
  while (i < total) {
    const now = performance.now();
    for (; i < total && t0 + i * interval <= now; i++) pending.push(send(t0 + i * interval));
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { requests: latencies.length, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies), errors, non2xx };
}
