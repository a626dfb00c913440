import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CREATE_STEPS, REMOVAL_STEPS, TENANT_STEPS } from '../../core/step-table.js';
import { stepModule } from '../../activities/step-registry.js';
import { tenantStepModules, tenantStepRows, tenantStepTableSource } from '../../activities/tenant-step-rows.js';

describe('the tenant step table, generated from the areas', () => {
  it('is current: core/tenant-steps.generated.ts is what npm run openapi:write writes from the areas', () => {
    const committed = readFileSync(new URL('../../core/tenant-steps.generated.ts', import.meta.url), 'utf8');
    expect(committed).toBe(tenantStepTableSource(tenantStepRows()));
  });

  it('keeps the spec order: create dns … dashboards, delete broker first and dashboards last', () => {
    // The spec's steps keep their order; a step the spec adds later may stand anywhere among them.
    const create = ['dns', 'resolver', 'state', 'network', 'device-address', 'log-store', 'dashboards'];
    const removal = ['broker', 'device-address', 'wifi', 'resolver', 'dns', 'state', 'log-store', 'dashboards'];
    expect(CREATE_STEPS.filter((s) => create.includes(s))).toEqual(create);
    expect(REMOVAL_STEPS.filter((s) => removal.includes(s))).toEqual(removal);
  });

  it('binds every row to the one module an area lists, with the activities its places imply', () => {
    for (const row of TENANT_STEPS) {
      const module = stepModule(row.name);
      expect(module.name).toBe(row.name);
      if (row.create) expect([typeof module.ensure, typeof module.plan], row.name).toEqual(['function', 'function']);
      if (row.removal !== null) expect(typeof module.remove, row.name).toBe('function');
    }
    expect(
      tenantStepModules()
        .map((s) => s.name)
        .sort(),
    ).toEqual(TENANT_STEPS.map((s) => s.name).sort());
  });

  it.each([
    [
      'two steps of one name',
      [
        { name: 'a', create: 1, removal: null },
        { name: 'a', create: 2, removal: null },
      ],
      /steps a and a have the same name/,
    ],
    [
      'two steps in one create place',
      [
        { name: 'a', create: 1, removal: null },
        { name: 'b', create: 1, removal: null },
      ],
      /same create place \(1\)/,
    ],
    [
      'two steps in one removal place',
      [
        { name: 'a', create: null, removal: 2 },
        { name: 'b', create: 1, removal: 2 },
      ],
      /same removal place \(2\)/,
    ],
  ])('refuses %s', (_, steps, message) => {
    expect(() => tenantStepRows(steps)).toThrow(message);
  });

  it('orders rows by their places, not by the areas’ order', () => {
    const rows = tenantStepRows([
      { name: 'late', create: 2, removal: 1 },
      { name: 'gone', create: null, removal: 3 },
      { name: 'early', create: 1, removal: null },
      { name: 'first-gone', create: null, removal: 2 },
    ]);
    expect(rows.map((r) => r.name)).toEqual(['early', 'late', 'first-gone', 'gone']);
  });
});
