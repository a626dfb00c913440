import { describe, expect, it } from 'vitest';
import { LEASE_WAIT_MS, leasePollPause } from './tenant-lease.js';

describe('leasePollPause: how long a run waiting for a held tenant pauses between claims', () => {
  it.each([
    [0, 250],
    [3, 250],
    [4, 500],
    [7, 500],
    [8, 1_000],
    [12, 2_000],
    [400, 2_000],
  ])('after claim %i: %i ms', (polls, ms) => {
    expect(leasePollPause(polls)).toBe(ms);
  });

  it('meets a holder that ends within 3 s within half a second, and claims 70 times over the whole bound', () => {
    const at: number[] = [0];
    for (let polls = 0; at.at(-1)! < LEASE_WAIT_MS; polls++) at.push(at.at(-1)! + Math.min(leasePollPause(polls), LEASE_WAIT_MS - at.at(-1)!));
    expect(at.filter((t) => t <= 3_000).every((t, i, all) => i === 0 || t - all[i - 1]! <= 500)).toBe(true);
    expect(at).toHaveLength(70);
  });
});
