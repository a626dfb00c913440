import { describe, expect, it } from 'vitest';
import { backendCalls } from './calls.js';
import { Pacer } from './pace.js';

/** The bound on calls per second to one backend: a second's worth at once, then the rate. */
describe('pacing the calls to one backend', () => {
  const run = (perSecond: number, callsAt: number[]) => {
    let t = 0;
    const pacer = new Pacer(perSecond, () => t);
    return callsAt.map((at) => {
      t = at;
      return Math.round(pacer.reserve());
    });
  };

  it.each([
    ['a burst up to the rate goes at once', 4, [0, 0, 0, 0], [0, 0, 0, 0]],
    ['past it, each call waits its turn in order', 4, [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 250, 500]],
    ['calls spread at the rate never wait', 2, [0, 500, 1000, 1500, 2000, 2500], [0, 0, 0, 0, 0, 0]],
    ['an idle backend earns back its burst, never more than a second of it', 2, [0, 0, 0, 10_000, 10_000, 10_000], [0, 0, 500, 0, 0, 500]],
    [
      'a sustained flood is held to the rate',
      10,
      Array.from({ length: 30 }, () => 0),
      [...Array(10).fill(0), ...Array.from({ length: 20 }, (_, i) => (i + 1) * 100)],
    ],
  ])('%s', (_reason, perSecond, callsAt, waits) => {
    expect(run(perSecond, callsAt)).toEqual(waits);
  });
});

/** Each worker's calls are paced by its own BackendCalls: two in one process share no bucket. */
describe("a worker's pacing", () => {
  it('is its own: a second worker is not held by the first one having spent its burst', async () => {
    const [first, second] = [backendCalls({ perSecond: 1 }), backendCalls({ perSecond: 1 })];
    const started = performance.now();
    await first.paced('proxmox');
    await second.paced('proxmox');
    expect(performance.now() - started).toBeLessThan(500);
    const waited = performance.now();
    await first.paced('proxmox');
    expect(performance.now() - waited).toBeGreaterThan(900);
  });

  it('is off at 0: no call waits', async () => {
    const calls = backendCalls({ perSecond: 0 });
    const started = performance.now();
    for (let i = 0; i < 50; i++) await calls.paced('grafana');
    expect(performance.now() - started).toBeLessThan(500);
  });
});
