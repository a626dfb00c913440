import { describe, expect, it } from 'vitest';
import { movedSince, planDigest, removalsOf, type PlannedObject } from './saved-plan.js';
import { removes } from './backend-outcome.js';

const zone: PlannedObject = { area: 'dns', object: 'zone acme.lab.', result: 'corrected', fields: ['NS', 'SOA'] };
const vm: PlannedObject = { area: 'hypervisor', object: 'vm 10041 (x)', result: 'unknown' };
const key: PlannedObject = { area: 'state', object: 'user acme', result: 'in-place' };

describe('a saved plan', () => {
  it('has one digest for the same objects and states, in any order and field order', () => {
    expect(planDigest([zone, vm, key])).toBe(planDigest([key, vm, { ...zone, fields: ['SOA', 'NS'] }]));
    expect(planDigest([zone, vm])).not.toBe(planDigest([zone, { ...vm, result: 'in-place' }]));
    expect(planDigest([zone])).not.toBe(planDigest([zone, key]));
  });

  it.each([
    [[zone, vm, key], [zone, vm, key], []],
    [[zone, vm, key], [{ ...zone, result: 'in-place', fields: [] }, vm, key], ['dns: zone acme.lab. was corrected (NS,SOA), now in-place']],
    [[zone, vm], [zone], ['hypervisor: vm 10041 (x) was unknown, now gone']],
    [[zone], [zone, vm], ['hypervisor: vm 10041 (x) is new, unknown']],
    [[zone], [{ ...zone, fields: ['NS'] }], ['dns: zone acme.lab. was corrected (NS,SOA), now corrected (NS)']],
  ])('names what moved: %#', (planned, now, moved) => {
    expect(movedSince(planned, now)).toEqual(moved);
  });

  it('removes with prune only what nothing holds', () => {
    expect(removalsOf([zone, vm, key])).toEqual(['vm 10041 (x)']);
  });
});

describe('what a reconcile removes', () => {
  it.each([
    ['correct', 'vm 1 (x)', false],
    ['plan', 'vm 1 (x)', false],
    ['prune', 'vm 1 (x)', true],
    [{ only: ['vm 1 (x)'] }, 'vm 1 (x)', true],
    [{ only: ['vm 1 (x)'] }, 'vm 2 (y)', false],
    [{ only: [] }, 'vm 1 (x)', false],
  ] as const)('%j removes %s: %s', (mode, object, removed) => {
    expect(removes(mode, object)).toBe(removed);
  });
});
