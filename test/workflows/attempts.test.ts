import { ApplicationFailure } from '@temporalio/activity';
import { Client, WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAILED_STEPS, OUTCOME } from '../../core/search-attributes.js';
import { wifiKeyRevoke } from '../../workflows/index.js';
import { type CreateResult } from '../../contracts/tenant.js';
import { type WorkloadRequest } from '../../contracts/workload.js';
import { runIds } from '../../contracts/ids.js';
import { attemptWifiKeyRevoke } from '../../contracts/wifi-key.js';
import { waitFor } from '../support/wait-for.js';
import { apiRuns } from '../support/workflow-calls.js';
import { freshStubs, gate, startWorkflowEnv, stepFails, tenantCreateStubs, workloadCreateStubs, type WorkflowTestEnv } from '../support/workflow-env.js';

/**
 * How a run serves its calls (workflows/attempts.ts), through the API's own update-with-start
 * (apps/api/runs.ts) against the production workflow bundle, the backend steps and the registry
 * stubbed: calls for one object meet in its run, a create arriving while an attempt runs joins it,
 * a workload's calls run one after another, a failed attempt parks the run for the repeat, which
 * resumes the same run, a run parked past its bound ends Failed, and a run still takes calls under
 * its former update name.
 */
let w: WorkflowTestEnv;
const PARKED_MS = 1500;

beforeAll(async () => {
  w = await startWorkflowEnv();
});
afterAll(async () => {
  await w?.stop();
});
beforeEach(() => {
  freshStubs(w);
});

const { api, createTenant: create, createWorkload } = apiRuns(() => w, PARKED_MS);
const describeRun = async (id: string) => {
  const d = await w.env.client.workflow.getHandle(id).describe();
  return { runId: d.runId, status: d.status.name, outcome: d.typedSearchAttributes.get(OUTCOME), failedSteps: d.typedSearchAttributes.get(FAILED_STEPS) ?? [] };
};
/** What the run wrote of its object's life (activities/object-runs.ts), in order: `claim`, or the settled state. */
const lifeOf = (id: string) =>
  w.lives.filter((l) => l.workflowId === id).map((l) => (l.activity === 'claimRun' ? 'claim' : (l.settled as { state: string }).state));
const settledOf = (id: string) => w.lives.filter((l) => l.workflowId === id && l.activity === 'settleRun').map((l) => l.settled as Record<string, any>);
const within = <T>(ms: number, p: Promise<T>): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))]);
const currentDetails = async (id: string): Promise<string> =>
  (await w.env.client.workflow.getHandle(id).query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '';

describe('a create arriving while an attempt runs', () => {
  it('joins it: one attempt runs, both calls get its answer, in one run', async () => {
    const stubs = tenantCreateStubs(w);
    const dns = gate();
    stubs.step('dns.ensure', () => dns.wait());
    const first = create('joined');
    await waitFor(() => dns.entered > 0);
    const second = create('joined');
    // The second call reached the run before the step is let go.
    await waitFor(
      async () =>
        (await w.env.client.workflow.getHandle(runIds.tenantCreate('joined')).fetchHistory()).events!.filter(
          (e) => e.workflowExecutionUpdateAcceptedEventAttributes,
        ).length === 2,
    );
    dns.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual(b);
    expect(a.kind).toBe('ready');
    expect(stubs.calls('prepareTenant')).toBe(1);
    expect(dns.entered).toBe(1);
    await w.env.client.workflow.getHandle(runIds.tenantCreate('joined')).result();
    expect(await describeRun(runIds.tenantCreate('joined'))).toMatchObject({ status: 'COMPLETED', outcome: 'created' });
  });
});

describe("a workload's calls", () => {
  const req = (cores: number): WorkloadRequest => ({ tenant: 'serial', name: 'web', cores, memoryMb: 1024, actor: 'test' });
  const call = createWorkload;

  it('run one after another in arrival order, never interleaved; each gets its own answer', async () => {
    const order: string[] = [];
    const vm = gate();
    Object.assign(w.stubs, {
      prepareWorkload: async () => ({ kind: 'proceed', index: 1, registered: true, diskGb: 8 }),
      registerWorkload: async (r: WorkloadRequest) => ({ kind: 'proceed', spec: { cores: r.cores } }),
      'hypervisor.ensure-vm': async (spec: { cores: number }) => {
        order.push(`vm ${spec.cores}`);
        if (spec.cores === 1) await vm.wait();
        order.push(`vm ${spec.cores} done`);
        return [];
      },
      'dns.publish-workload': async (spec: { cores: number }) => {
        order.push(`names ${spec.cores}`);
        return [];
      },
      finishWorkload: async () => ({ cores: order.filter((o) => o.startsWith('names')).length }),
    } as never);
    const one = call(req(1));
    await waitFor(() => vm.entered > 0);
    const two = call(req(2));
    await waitFor(
      async () =>
        (await w.env.client.workflow.getHandle(runIds.workloadCreate('serial', 'web')).fetchHistory()).events!.filter(
          (e) => e.workflowExecutionUpdateAcceptedEventAttributes,
        ).length === 2,
    );
    expect(order).toEqual(['vm 1']);
    vm.open();
    expect(await one).toMatchObject({ kind: 'done', workload: { cores: 1 } });
    expect(await two).toMatchObject({ kind: 'done', workload: { cores: 2 } });
    expect(order).toEqual(['vm 1', 'vm 1 done', 'names 1', 'vm 2', 'vm 2 done', 'names 2']);
    // No attempt left: the run ends, with the last call's answer as its result.
    expect(await w.env.client.workflow.getHandle(runIds.workloadCreate('serial', 'web')).result()).toMatchObject({ workload: { cores: 2 } });
  });

  it('after a failed attempt park the run, and the repeat resumes the same run', async () => {
    const stubs = workloadCreateStubs(w);
    stubs.step('hypervisor.ensure-vm', stepFails('hypervisor'));
    stubs.step('dns.publish-workload', async () => []);
    const r = { ...req(1), tenant: 'serialpark' };
    const id = runIds.workloadCreate(r.tenant, r.name);
    expect(await call(r)).toMatchObject({ kind: 'failed', step: 'hypervisor', workload: { name: 'web' } });
    const parked = await describeRun(id);
    expect(parked).toMatchObject({ status: 'RUNNING', outcome: 'failed', failedSteps: ['hypervisor'] });
    stubs.step('hypervisor.ensure-vm', async () => []);
    expect(await call(r)).toMatchObject({ kind: 'done', workload: { name: 'web' } });
    await w.env.client.workflow.getHandle(id).result();
    expect(await describeRun(id)).toEqual({ runId: parked.runId, status: 'COMPLETED', outcome: 'resumed', failedSteps: ['hypervisor'] });
  });
});

describe('a failed attempt', () => {
  it('parks the run, says after which step and until when, and the repeat resumes the same run', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', stepFails('dns'));
    const failed = await create('parked');
    expect(failed).toMatchObject({ kind: 'failed', step: 'dns' });
    const id = runIds.tenantCreate('parked');
    const parked = await describeRun(id);
    expect(parked).toMatchObject({ status: 'RUNNING', outcome: 'failed', failedSteps: ['dns'] });
    // What failed first (the step and what the backend answered), then what the run waits for.
    const details = (await currentDetails(id)).split('\n');
    expect(details[0]).toBe('**Step `dns` failed**: 500');
    expect(details.slice(1).join('\n')).toMatch(
      /^\nParked after step `dns` failed; waiting until \d{4}-.+Z for a repeat of the create, which resumes from that step\.$/,
    );

    // The registry is told: the object is claimed, then parked with the failed step, for the parked bound.
    expect(lifeOf(id)).toEqual(['claim', 'parked']);
    expect(settledOf(id)[0]).toMatchObject({ state: 'parked', parkedMs: PARKED_MS, failure: { step: 'dns', activity: 'dns.ensure' } });
    expect((failed as { failure?: unknown }).failure).toEqual(settledOf(id)[0]!.failure);

    stubs.step('dns.ensure', async () => []);
    const again = await create('parked');
    expect(again.kind).toBe('ready');
    await w.env.client.workflow.getHandle(id).result();
    expect(await describeRun(id)).toEqual({ runId: parked.runId, status: 'COMPLETED', outcome: 'resumed', failedSteps: ['dns'] });
    expect(await currentDetails(id)).toBe('');
    // Resumed: claimed again, then done, its answer kept for a caller who may lose it, named as the API was told.
    expect(lifeOf(id)).toEqual(['claim', 'parked', 'claim', 'done']);
    const done = settledOf(id)[1]!;
    expect(done.answer).toMatchObject({ id: (again as { answer_id?: string }).answer_id, value: { kind: 'ready' } });
  });

  it('parked, ends at once, Completed and `superseded`, when the API says its object was deleted', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', stepFails('dns'));
    const id = runIds.tenantCreate('gone');
    expect(await create('gone')).toMatchObject({ kind: 'failed', step: 'dns' });
    // What the tenant delete's answer does (apps/api/operations/tenant.ts): the parked create is told.
    await api().superseded({ kind: 'deleted' }, 'deleted', [id]);
    // Before its parked bound (1.5 s) could end it Failed.
    await within(1_000, w.env.client.workflow.getHandle(id).result());
    expect(await describeRun(id)).toMatchObject({ status: 'COMPLETED', outcome: 'superseded', failedSteps: ['dns'] });
    expect(lifeOf(id)).toEqual(['claim', 'parked', 'superseded']);
    // A delete that did not answer `deleted` tells no run.
    stubs.step('dns.ensure', stepFails('dns'));
    expect(await create('kept')).toMatchObject({ kind: 'failed', step: 'dns' });
    await api().superseded({ kind: 'failed' }, 'deleted' as never, [runIds.tenantCreate('kept')]);
    expect(await describeRun(runIds.tenantCreate('kept'))).toMatchObject({ status: 'RUNNING' });
  });

  it('parked past its bound ends the run Failed, found by its status and failed step; a later call starts a fresh run', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', stepFails('dns'));
    const id = runIds.tenantCreate('late');
    expect(await create('late')).toMatchObject({ kind: 'failed', step: 'dns' });
    // Well past the bound: a run that did not give up by then never will.
    const given = await within(10_000, w.env.client.workflow.getHandle(id).result()).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(given).toBeInstanceOf(WorkflowFailedError);
    const cause = (given as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe('ParkedTimeout');
    expect(cause.message).toBe('gave up: step "dns" failed and no repeat of the create came within 2 s');
    await waitFor(async () => {
      for await (const r of w.env.client.workflow.list({ query: `ExecutionStatus = 'Failed' AND FailedSteps = 'dns' AND WorkflowId = '${id}'` }))
        return r.workflowId === id;
      return false;
    });
    // Without the codec, the history still says why (temporal/failure-converter.ts keeps it in clear).
    const plain = new Client({ connection: w.env.connection });
    const last = (await plain.workflow.getHandle(id).fetchHistory()).events!.at(-1)!;
    expect(last.workflowExecutionFailedEventAttributes?.failure?.message).toBe('gave up: step "dns" failed and no repeat of the create came within 2 s');
    // The registry hears it gave up, with the failure it gave up on: the object is no longer claimed.
    expect(lifeOf(id)).toEqual(['claim', 'parked', 'given-up']);
    expect(settledOf(id)[1]).toMatchObject({ state: 'given-up', failure: { step: 'dns' } });
    const failedRun = (await describeRun(id)).runId;

    stubs.step('dns.ensure', async () => []);
    const fresh: CreateResult = await create('late');
    expect(fresh.kind).toBe('ready');
    const run = await describeRun(id);
    expect(run.runId).not.toBe(failedRun);
    expect(stubs.calls('prepareTenant')).toBe(2);
  });
});

describe('update-with-start', () => {
  it("a call whose requests are all alike (the API's run.call) starts its run with the request and the site's parked timeout", async () => {
    Object.assign(w.stubs, { 'wifi.revoke-key': stepFails('wifi') });
    const id = runIds.wifiKeyRevoke('calls', 'old');
    const answer = await api().call(
      wifiKeyRevoke,
      attemptWifiKeyRevoke,
      { workflowId: id, tenant: 'calls', object: 'Wi-Fi key old' },
      { tenant: 'calls', name: 'old' },
    );
    expect(answer).toMatchObject({ kind: 'failed', step: 'wifi' });
    // Parked under the site's bound (PARKED_MS here), not the 24 h a run started without one takes.
    const given = await within(10_000, w.env.client.workflow.getHandle(id).result()).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(((given as WorkflowFailedError).cause as ApplicationFailure).message).toBe(
      'gave up: step "wifi" failed and no repeat of the wifi key revoke came within 2 s',
    );
  });

  it('starts the run with the first call and answers it in the same request; after the run ends, the next call starts another', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', async () => []);
    const id = runIds.tenantCreate('uws');
    expect((await create('uws')).kind).toBe('ready');
    const first = await describeRun(id);
    await w.env.client.workflow.getHandle(id).result();
    expect((await create('uws')).kind).toBe('ready');
    const second = await describeRun(id);
    expect(second.runId).not.toBe(first.runId);
    // Each run was started by its call: its history begins with the start and the update accepted.
    const events = (await w.env.client.workflow.getHandle(id, second.runId).fetchHistory()).events!;
    expect(events[0]!.workflowExecutionStartedEventAttributes).toBeTruthy();
    expect(events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1);
  });
});
