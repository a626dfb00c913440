import { ApplicationFailure } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import type { Context } from '@temporalio/activity';
import type { ActivityExecuteInput } from '@temporalio/worker';
import { endsRun, failedStepOf, outcomeOfObjects, stepMetricsInterceptor, stepOfActivity, stepsOfReport, successOf } from './metrics-interceptor.js';
import { createWorkerMetrics } from '../telemetry/metrics.js';
import { summarizeSweep } from './sweep-metrics-workflow-interceptor.js';
import { resultOfError, resultOfStatus } from '../../backends/http/telemetry.js';

describe('which activity runs which step', () => {
  it.each([
    ['one activity per step, ensure', 'dns.ensure', { step: 'dns', operation: 'ensure' }],
    ['one activity per step, remove', 'broker.remove', { step: 'broker', operation: 'remove' }],
    ['a hyphenated step', 'log-store.ensure', { step: 'log-store', operation: 'ensure' }],
    ['the older step<Name> activities', 'stepDeviceAddress', { step: 'device-address', operation: 'ensure' }],
    ['a one-word older one', 'stepDns', { step: 'dns', operation: 'ensure' }],
    ['an activity that runs several steps is no single step', 'runSteps', undefined],
    ['a registry activity', 'prepareTenant', undefined],
    ["an object's step: the area and its verb", 'hypervisor.ensure-vm', { step: 'hypervisor', operation: 'ensure-vm' }],
    ['a fabric read', 'network.observe-zone', { step: 'network', operation: 'observe-zone' }],
    ['a capitalised verb is no step', 'dns.Publish', undefined],
    ['three parts are no step', 'dns.publish.record', undefined],
    ['an unbounded name is no step', `${'x'.repeat(40)}.ensure`, undefined],
  ])('%s: %s', (_reason, type, want) => {
    expect(stepOfActivity(type)).toEqual(want);
  });
});

describe('the outcome of a step run from its objects', () => {
  it.each([
    ['nothing to do', [{ object: 'zone a.', result: 'in-place' }], 'in_place'],
    [
      'an object made',
      [
        { object: 'zone a.', result: 'in-place' },
        { object: 'key a', result: 'created' },
      ],
      'created',
    ],
    [
      'a corrected object wins over a created one',
      [
        { object: 'a', result: 'created' },
        { object: 'b', result: 'corrected' },
      ],
      'corrected',
    ],
    ['no objects', [], 'in_place'],
    ['not a list of objects', { tenant: 'a' }, undefined],
    ['a list of something else', ['a'], undefined],
  ])('%s', (_reason, answer, want) => {
    expect(outcomeOfObjects(answer)).toBe(want);
  });
});

describe('what a step that passed did', () => {
  it.each([
    ['an ensure of objects: the most it did', 'ensure-vm', [{ object: 'vm 1', result: 'corrected' }], 'corrected'],
    ['a removal', 'remove-vm', undefined, 'removed'],
    ['an unpublish', 'unpublish-record', undefined, 'removed'],
    ['a revoke that found nothing is still a removal', 'revoke-key', false, 'removed'],
    ['a release', 'release', { kind: 'released' }, 'removed'],
    ['a check answers no objects', 'check-name', true, 'done'],
    ['a write that answers nothing', 'publish-record', undefined, 'done'],
    ['a verb that only starts like a removal is none', 'removed-things', undefined, 'done'],
  ])('%s', (_reason, operation, answer, want) => {
    expect(successOf(operation, answer)).toBe(want);
  });
});

describe('the steps of a report answer', () => {
  it.each([
    [
      'each step with its outcome',
      [
        { step: 'dns', ok: true, objects: [{ object: 'z', result: 'created' }] },
        { step: 'state', ok: true, objects: [] },
      ],
      [
        { step: 'dns', outcome: 'created' },
        { step: 'state', outcome: 'in_place' },
      ],
    ],
    ['a tenant view is no report', { name: 'a', steps: [{ name: 'dns', ok: true }] }, []],
    ['entries without objects are no report', [{ name: 'dns', ok: true }], []],
    ['a step name that is no label value', [{ step: 'Acme Corp', objects: [] }], []],
  ])('%s', (_reason, answer, want) => {
    expect(stepsOfReport(answer)).toEqual(want);
  });
});

describe('the step a failure names', () => {
  it.each([
    ['a backend step failure names its step', ApplicationFailure.create({ message: 'x', type: 'BackendFailed', details: ['dns'] }), 'dns'],
    ['a refusal too', ApplicationFailure.create({ message: 'x', type: 'BackendRefused', details: ['log-store', []] }), 'log-store'],
    ['another failure type is not a step', ApplicationFailure.create({ message: 'x', type: 'Other', details: ['dns'] }), undefined],
    ['a plain error', new Error('dns'), undefined],
  ])('%s', (_reason, err, want) => {
    expect(failedStepOf(err)).toBe(want);
  });
});

describe('what a sweep did, in counts', () => {
  it.each([
    [
      'reconciled, failed and corrected',
      { tenants: 3, reconciled: ['a', 'b'], failed: ['c'], corrected: { a: ['dns: zone a. created', 'state: user a corrected'], b: ['x'] } },
      { ok: true, tenants: 3, reconciled: 2, failed: 1, corrected: 3 },
    ],
    ['nothing to do', { tenants: 0, reconciled: [], failed: [], corrected: {} }, { ok: true, tenants: 0, reconciled: 0, failed: 0, corrected: 0 }],
    ['an answer of another shape', undefined, { ok: true, tenants: 0, reconciled: 0, failed: 0, corrected: 0 }],
  ])('%s', (_reason, result, want) => {
    expect(summarizeSweep(result)).toEqual(want);
  });
});

describe('the result label of a backend call', () => {
  it.each([
    [200, false, 'ok'],
    [404, true, 'ok'],
    [404, false, 'refused'],
    [409, false, 'refused'],
    [429, false, 'error'],
    [408, false, 'error'],
    [502, false, 'error'],
  ])('status %i (accepted %s) is %s', (status, accepted, want) => {
    expect(resultOfStatus(status, accepted)).toBe(want);
  });

  it.each([
    ['no answer within 3000 ms', 'timeout'],
    ['connect ECONNREFUSED 127.0.0.1:1', 'unreachable'],
  ])('%s is %s', (message, want) => {
    expect(resultOfError(new Error(message))).toBe(want);
  });
});

describe('the interceptor counts what a step activity did', () => {
  const failure = ApplicationFailure.create({ message: 'backend step "dns" failed', type: 'BackendFailed', details: ['dns'] });
  it.each([
    [
      'an ensure that created an object',
      'dns.ensure',
      async () => [{ object: 'zone a.', result: 'created' }],
      { step: 'dns', operation: 'ensure', outcome: 'created' },
    ],
    [
      'an ensure with everything in place',
      'network.ensure',
      async () => [{ object: 'vnet v1', result: 'in-place' }],
      { step: 'network', operation: 'ensure', outcome: 'in_place' },
    ],
    ['a remove', 'broker.remove', async () => undefined, { step: 'broker', operation: 'remove', outcome: 'removed' }],
    [
      'a failed ensure',
      'dns.ensure',
      async () => {
        throw failure;
      },
      { step: 'dns', operation: 'ensure', outcome: 'failed' },
    ],
    [
      'a report of several steps',
      'runSteps',
      async () => [{ step: 'state', ok: true, objects: [{ object: 'user a', result: 'corrected' }] }],
      { step: 'state', operation: 'ensure', outcome: 'corrected' },
    ],
    [
      'the failure of several steps names its step',
      'runStepsAndFinish',
      async () => {
        throw failure;
      },
      { step: 'dns', operation: 'ensure', outcome: 'failed' },
    ],
    [
      "a workload's failed VM step",
      'hypervisor.ensure-vm',
      async () => {
        throw failure;
      },
      { step: 'hypervisor', operation: 'ensure-vm', outcome: 'failed' },
    ],
    ["a record's published name", 'dns.publish-record', async () => undefined, { step: 'dns', operation: 'publish-record', outcome: 'done' }],
    ["a broker account's removal", 'broker.remove-account', async () => undefined, { step: 'broker', operation: 'remove-account', outcome: 'removed' }],
    ['an activity that is no step', 'prepareTenant', async () => ({ kind: 'proceed' }), undefined],
  ])('%s', async (_reason, activityType, work, want) => {
    const metrics = createWorkerMetrics();
    // The last attempt the policy allows: a failure then ends the run too.
    const info = { activityType, attempt: 3, retryPolicy: { maximumAttempts: 3 } };
    const { inbound } = stepMetricsInterceptor(metrics)({ info } as unknown as Context);
    await inbound!.execute!({ args: [], headers: {} } as unknown as ActivityExecuteInput, work).catch(() => {});
    for (const counter of [metrics.stepRuns, metrics.stepAttempts]) {
      const counted = (await counter.get()).values.filter((v) => v.value > 0);
      expect(counted.map((v) => v.labels)).toEqual(want ? [want] : []);
    }
  });
});

describe('runs and attempts counted apart', () => {
  const backendFailed = ApplicationFailure.create({ message: 'backend step "dns" failed', type: 'BackendFailed', details: ['dns'] });
  const refused = ApplicationFailure.create({ message: 'refused', type: 'BackendRefused', details: ['dns'] });
  const policy = { maximumAttempts: 3, nonRetryableErrorTypes: ['BackendRefused', 'TenantGone'] };

  it.each([
    ['a failed attempt the policy retries', { attempt: 1, retryPolicy: policy }, backendFailed, false],
    ['the last attempt the policy allows', { attempt: 3, retryPolicy: policy }, backendFailed, true],
    ['a failure type the policy does not retry', { attempt: 1, retryPolicy: policy }, refused, true],
    ['a failure marked non-retryable', { attempt: 1, retryPolicy: policy }, ApplicationFailure.nonRetryable('gone', 'Other'), true],
    ['the server default policy retries without end', { attempt: 40, retryPolicy: undefined }, backendFailed, false],
    ['maximumAttempts 0 is without end too', { attempt: 40, retryPolicy: { maximumAttempts: 0 } }, new Error('x'), false],
  ])('%s ends the run: %s', (_reason, info, err, want) => {
    expect(endsRun(info, err)).toBe(want);
  });

  it('counts a step failed for good after three attempts as three failed attempts and one failed run', async () => {
    const metrics = createWorkerMetrics(['dns.ensure']);
    for (const attempt of [1, 2, 3]) {
      const info = { activityType: 'dns.ensure', attempt, retryPolicy: policy };
      const { inbound } = stepMetricsInterceptor(metrics)({ info } as unknown as Context);
      await inbound!.execute!({ args: [], headers: {} } as unknown as ActivityExecuteInput, async () => {
        throw backendFailed;
      }).catch(() => {});
    }
    const failed = { step: 'dns', operation: 'ensure', outcome: 'failed' };
    const value = async (c: typeof metrics.stepRuns) => (await c.get()).values.find((v) => JSON.stringify(v.labels) === JSON.stringify(failed))?.value;
    expect(await value(metrics.stepAttempts)).toBe(3);
    expect(await value(metrics.stepRuns)).toBe(1);
  });

  it('counts a step that passed at its second attempt as one failed attempt, one passed, and one run that passed', async () => {
    const metrics = createWorkerMetrics(['dns.ensure']);
    for (const attempt of [1, 2]) {
      const { inbound } = stepMetricsInterceptor(metrics)({ info: { activityType: 'dns.ensure', attempt, retryPolicy: policy } } as unknown as Context);
      await inbound!.execute!({ args: [], headers: {} } as unknown as ActivityExecuteInput, async () => {
        if (attempt === 1) throw backendFailed;
        return [{ object: 'zone a.', result: 'created' }];
      }).catch(() => {});
    }
    const nonZero = async (c: typeof metrics.stepRuns) => (await c.get()).values.filter((v) => v.value > 0).map((v) => `${v.labels.outcome}=${v.value}`);
    expect((await nonZero(metrics.stepAttempts)).sort()).toEqual(['created=1', 'failed=1']);
    expect(await nonZero(metrics.stepRuns)).toEqual(['created=1']);
  });
});

describe("the interceptor counts what a reconcile or its plan found of a tenant's objects", () => {
  it('counts each object of a step or area by its result and mode, only in a reconcile or plan run', async () => {
    const metrics = createWorkerMetrics(['hypervisor.reconcile-workloads', 'hypervisor.plan-workloads', 'dns.ensure', 'dns.plan']);
    const run = async (activityType: string, workflowType: string, answer: unknown) => {
      const { inbound } = stepMetricsInterceptor(metrics)({ info: { activityType, workflowType } } as unknown as Context);
      await inbound!.execute!({ args: [], headers: {} } as unknown as ActivityExecuteInput, async () => answer);
    };
    await run('hypervisor.reconcile-workloads', 'tenantReconcile', [
      { object: 'workload web (vm 1040)', result: 'corrected', fields: ['cores'] },
      { object: 'vm 1041', result: 'unknown' },
      { object: 'workload db (vm 1042)', result: 'in-place' },
    ]);
    await run('dns.ensure', 'tenantReconcile', [{ object: 'zone a.', result: 'corrected', fields: ['NS'] }]);
    await run('hypervisor.plan-workloads', 'tenantPlan', [{ object: 'vm 1041', result: 'unknown' }]);
    // A create's ensures are not drift.
    await run('hypervisor.ensure-vm', 'workloadCreate', [{ object: 'vm 1043', result: 'created' }]);
    await run('dns.ensure', 'tenantCreate', [{ object: 'zone b.', result: 'created' }]);
    const counted = (await metrics.reconcileObjects.get()).values
      .filter((v) => v.value > 0)
      .map((v) => [v.labels.area, v.labels.result, v.labels.mode, v.value]);
    expect(counted.sort()).toEqual([
      ['dns', 'corrected', 'correct', 1],
      ['hypervisor', 'corrected', 'correct', 1],
      ['hypervisor', 'in-place', 'correct', 1],
      ['hypervisor', 'unknown', 'correct', 1],
      ['hypervisor', 'unknown', 'plan', 1],
    ]);
    // Every result of each mode starts at zero for the area, so the alert sees its first increase.
    expect((await metrics.reconcileObjects.get()).values.filter((v) => v.labels.area === 'hypervisor')).toHaveLength(12);
    // A plan's own step outcome is `done`: it changed nothing.
    const planRuns = (await metrics.stepRuns.get()).values.filter((v) => v.labels.operation === 'plan-workloads' && v.value > 0);
    expect(planRuns.map((v) => v.labels.outcome)).toEqual(['done']);
  });
});

describe("the isolation check's probes, by backend and result", () => {
  const policy = { maximumAttempts: 3, nonRetryableErrorTypes: ['IsolationCrossed'] };
  const crossed = ApplicationFailure.create({ message: "state: canary canarya's state-store key reached ...", type: 'IsolationCrossed', nonRetryable: true });
  const refusedOwn = ApplicationFailure.create({ message: 'refused on its own objects', type: 'OwnAccessRefused' });

  it.each([
    ['a cross probe refused', 1, async () => ({ result: 'refused', attempts: [] }), 'isolated'],
    ['an own probe that reached', 1, async () => ({ result: 'reached', attempts: [] }), 'works'],
    [
      'a crossing, at its first attempt',
      1,
      async () => {
        throw crossed;
      },
      'crossed',
    ],
    [
      'an own probe refused at its last attempt',
      3,
      async () => {
        throw refusedOwn;
      },
      'broken',
    ],
    [
      'an own probe refused at an attempt a retry follows: not counted yet',
      1,
      async () => {
        throw refusedOwn;
      },
      undefined,
    ],
  ])('%s', async (_reason, attempt, work, want) => {
    const metrics = createWorkerMetrics(['state.isolation-probe']);
    const { inbound } = stepMetricsInterceptor(metrics)({
      info: { activityType: 'state.isolation-probe', attempt, retryPolicy: policy },
    } as unknown as Context);
    await inbound!.execute!({ args: [], headers: {} } as unknown as ActivityExecuteInput, work).catch(() => {});
    const counted = (await metrics.isolationChecks.get()).values.filter((v) => v.value > 0).map((v) => `${v.labels.backend}:${v.labels.result}`);
    expect(counted).toEqual(want ? [`state:${want}`] : []);
    // The bad results are there at zero from the start, so a first crossing shows in increase().
    const zeroed = (await metrics.isolationChecks.get()).values.map((v) => `${v.labels.backend}:${v.labels.result}`);
    expect(zeroed).toEqual(expect.arrayContaining(['state:crossed', 'state:broken']));
  });
});
