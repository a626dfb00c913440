import { describe, expect, it } from 'vitest';
import { CREATE_STEPS, REMOVAL_STEPS, STEP_ACTIVITY_TYPES, TENANT_STEPS, type TenantStepName } from '../../core/step-table.js';
import { TENANT_STEP_MODULES } from '../../activities/tenant-steps.js';
import type { StepModule } from '../../activities/tenant-step-module.js';

type StepModules = { [N in TenantStepName]: StepModule<N> };

describe('the tenant step list', () => {
  it('keeps the spec order: create dns … dashboards, delete broker first and dashboards last', () => {
    expect(CREATE_STEPS).toEqual(['dns', 'resolver', 'state', 'network', 'device-address', 'log-store', 'dashboards']);
    expect(REMOVAL_STEPS).toEqual(['broker', 'device-address', 'wifi', 'resolver', 'dns', 'state', 'log-store', 'dashboards']);
  });

  // A run in flight replays the activity names its history holds: none of these may go or be
  // renamed. A step added needs no line here: the steps a run takes are its registry activity's
  // answer, kept in its history, so a new name anywhere in the list replays the same.
  it('keeps the Temporal activity names the runs in flight replay', () => {
    expect(STEP_ACTIVITY_TYPES).toEqual(
      expect.arrayContaining([
        ...['dns', 'resolver', 'state', 'network', 'device-address', 'log-store', 'dashboards'].map((s) => `${s}.ensure`),
        ...['dns', 'resolver', 'state', 'network', 'device-address', 'log-store', 'dashboards'].map((s) => `${s}.plan`),
        ...['broker', 'device-address', 'wifi', 'resolver', 'dns', 'state', 'log-store', 'dashboards'].map((s) => `${s}.remove`),
      ]),
    );
  });

  it('binds every name to the module of that name, with the activities its orders imply', () => {
    expect(Object.keys(TENANT_STEP_MODULES).sort()).toEqual([...new Set([...TENANT_STEPS.create, ...TENANT_STEPS.removal])].sort());
    for (const [name, module] of Object.entries(TENANT_STEP_MODULES)) expect(module.name).toBe(name);
    for (const s of CREATE_STEPS) expect([typeof TENANT_STEP_MODULES[s].ensure, typeof TENANT_STEP_MODULES[s].plan], s).toEqual(['function', 'function']);
    for (const s of REMOVAL_STEPS) expect(typeof TENANT_STEP_MODULES[s].remove, s).toBe('function');
  });

  it('is held to its modules by the typecheck (these lines compile only because each is refused)', () => {
    const { dns, ...withoutDns } = TENANT_STEP_MODULES;
    // @ts-expect-error a name in the list without its module
    const missing: StepModules = withoutDns;
    // @ts-expect-error a module under another step's name
    const swapped: StepModules = { ...TENANT_STEP_MODULES, dns: TENANT_STEP_MODULES.resolver };
    // @ts-expect-error a create step without its plan
    const noPlan: StepModules = { ...TENANT_STEP_MODULES, dns: { ...dns, plan: undefined } };
    // @ts-expect-error a removal step without its remove
    const noRemove: StepModules = { ...TENANT_STEP_MODULES, wifi: { ...TENANT_STEP_MODULES.wifi, remove: undefined } };
    expect([missing, swapped, noPlan, noRemove].length).toBe(4);
  });
});
