import { describe, expect, it } from 'vitest';
import { kindOfObject, noneParked, OBJECT_KINDS } from '../../db/queries/census.js';
import { createApiMetrics, createWorkerMetrics } from './metrics.js';

/** `# HELP <name> <text>` of every family in an exposition. */
const helps = (text: string): Map<string, string> => new Map([...text.matchAll(/^# HELP (\S+) (.*)$/gm)].map((m) => [m[1]!, m[2]!]));

describe('the kind of object a parked run works on', () => {
  it.each([
    ['tenants/acme', 'tenant'],
    ['tenants/acme/workloads/web', 'workload'],
    ['tenants/acme/records/www', 'record'],
    ['tenants/acme/devices/cam-1/address', 'device-address'],
    ['tenants/acme/wifi-keys/admission', 'wifi-key'],
    ['tenants/acme/broker-accounts/meter', 'broker-account'],
    ['tenants/acme/devices/cam-1', undefined],
    ['tenants/acme/other/x', undefined],
    ['plans/x', undefined],
  ])('%s is %s', (path, want) => {
    expect(kindOfObject(path)).toBe(want);
  });
});

describe('metric names and help texts say what they count', () => {
  it('step runs count each run once and attempts each attempt, apart', async () => {
    const text = await createWorkerMetrics(['dns.ensure']).registry.metrics();
    const help = helps(text);
    expect(help.get('provisioning_step_runs_total')).toMatch(/^Runs of each backend step activity .* each counted once whatever its attempts/);
    expect(help.get('provisioning_step_runs_total')).toMatch(/failed when its last attempt failed and no retry follows/);
    expect(help.get('provisioning_step_attempts_total')).toMatch(/^Attempts of each backend step activity .* counted at each attempt/);
    expect(help.get('provisioning_step_duration_seconds')).toMatch(/^Duration of each attempt/);
    // Both start at zero for a failure, so increase() sees the first one.
    for (const name of ['provisioning_step_runs_total', 'provisioning_step_attempts_total']) {
      expect(text).toContain(`${name}{step="dns",operation="ensure",outcome="failed"} 0`);
    }
  });

  it('parked runs are counted for every kind of object, each kind present', async () => {
    const parked = noneParked();
    parked.workload = { runs: 1, oldestSeconds: 42 };
    parked.tenant = { runs: 2, oldestSeconds: 7 };
    const text = await createApiMetrics(async () => ({ byStatus: { provisioning: 2 }, parked })).registry.metrics();
    expect(helps(text).get('provisioning_parked_runs')).toMatch(/^Runs parked after a failed step, waiting for the repeat .* by the kind of object/);
    expect(helps(text).get('provisioning_parked_run_oldest_age_seconds')).toMatch(/^Age of the oldest parked run of each kind of object/);
    for (const kind of OBJECT_KINDS) expect(text).toMatch(new RegExp(`^provisioning_parked_runs\\{kind="${kind}"\\} \\d+$`, 'm'));
    expect(text).toContain('provisioning_parked_runs{kind="workload"} 1');
    expect(text).toContain('provisioning_parked_runs{kind="tenant"} 2');
    expect(text).toContain('provisioning_parked_run_oldest_age_seconds{kind="workload"} 42');
    // The name that said "creates" while it counted a tenant's only is gone.
    expect(text).not.toContain('provisioning_parked_creates');
  });
});
