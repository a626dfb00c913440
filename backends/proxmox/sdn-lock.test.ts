import { describe, expect, it } from 'vitest';
import { lostTakeMs } from './sdn-lock.js';

describe('how old a take that never answered must be before its lock is released by force', () => {
  it("three times the longer of the call's bound (the backend timeout) and PVE's 10 s lock wait, never under 30 s", () => {
    const timeoutsMs = [1_000, 3_000, 10_000, 15_000, 60_000];
    expect(timeoutsMs.map(lostTakeMs)).toEqual([30_000, 30_000, 30_000, 45_000, 180_000]);
  });
});
