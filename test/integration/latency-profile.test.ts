import { afterAll, describe, expect, it } from 'vitest';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { LATENCY_PROFILES } from '../../apps/lab/simulators/latency-profile.js';

/**
 * `LAB_LATENCY=real-site` (issue 32 item 1): the simulated products take their profile's time per
 * call kind; by default (the tests) they take none.
 */
const started: LabBackends[] = [];
afterAll(async () => {
  await Promise.all(started.map((b) => b.stop()));
});

async function timedGet(b: LabBackends): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${b.env.SITE_PROXMOX_URL}/version`, {
    headers: { authorization: `PVEAPIToken=${b.env.SITE_PROXMOX_TOKEN_ID}=${b.env.SITE_PROXMOX_TOKEN_SECRET}` },
  });
  expect(res.status).toBe(200);
  return performance.now() - t0;
}

describe('the simulators latency profile', () => {
  it('real-site: a Proxmox request takes its profile time, an SDN reload and a clone theirs', async () => {
    const b = await startLabBackends({ latency: 'real-site', minimal: true });
    started.push(b);
    const real = LATENCY_PROFILES['real-site'];
    expect(await timedGet(b)).toBeGreaterThanOrEqual(real.proxmoxRequestMs - 1);
    const durations = b.proxmox.state.taskTiming.durations;
    expect(durations.get('srvreload')).toBe(5_000);
    expect(durations.get('qmclone')).toBe(real.proxmoxTasks.qmclone);
    const t0 = performance.now();
    const minio = await fetch(`${b.env.SITE_MINIO_URL}/minio/health/live`);
    expect(minio.status).toBeLessThan(500);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(real.minioRequestMs - 1);
  });

  it('zero (the default): no time added, no task lengthened', async () => {
    const b = await startLabBackends({ minimal: true });
    started.push(b);
    // Timing a fast call proves little on a loaded machine: what the simulators were told to add.
    await timedGet(b);
    expect([b.proxmox.faults.latencyMs, b.minio.faults.latencyMs]).toEqual([0, 0]);
    expect(b.proxmox.state.taskTiming.durations.size).toBe(0);
  });

  it('an unknown profile stops the lab before any server starts, naming the choices', async () => {
    await expect(startLabBackends({ latency: 'fast', minimal: true })).rejects.toThrow('LAB_LATENCY: "fast" is not a latency profile (zero, real-site)');
  });
});
