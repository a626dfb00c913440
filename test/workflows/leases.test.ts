import { ApplicationFailure } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type WorkloadRequest } from '../../contracts/workload.js';
import { runIds } from '../../contracts/ids.js';
import { waitFor } from '../support/wait-for.js';
import { apiRuns } from '../support/workflow-calls.js';
import { freshStubs, gate, type leaseTable, startWorkflowEnv, stepFails, tenantCreateStubs, type WorkflowTestEnv } from '../support/workflow-env.js';
import type { leaseProbe } from './lease-probe.js';

/**
 * "One tenant, one order" (docs/decisions.md, workflows/tenant-lease.ts) at workflow level: a run
 * finding its tenant held waits for the holder and goes on once it is released, or refuses after
 * its bound with a 409 that says to repeat; a run on a named object holds the tenant shared and
 * its name alone; the lease is released however the work ends, a parked run holding none. The
 * registry's leases are an in-memory table with the registry's rule (test/support/workflow-env.ts).
 */
let w: WorkflowTestEnv;
let leases: ReturnType<typeof leaseTable>;
const PARKED_MS = 60_000;

beforeAll(async () => {
  w = await startWorkflowEnv({ workflowsPath: fileURLToPath(new URL('./lease-probe.ts', import.meta.url)) });
});
afterAll(async () => {
  await w?.stop();
});
beforeEach(() => {
  leases = freshStubs(w);
});

const { createTenant: create, createWorkload } = apiRuns(() => w, PARKED_MS);
const claimsOf = (tenant: string) => leases.claims.filter((c) => c.tenant === tenant);

describe('a run finding its tenant held', () => {
  it('waits for the holder, and goes on once it is released', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', async () => []);
    leases.hold('waits', 'exclusive', 'tenant delete');
    const created = create('waits');
    await waitFor(() => claimsOf('waits').filter((c) => !c.granted).length >= 2);
    expect(stubs.calls('prepareTenant')).toBe(0);
    leases.free('waits', 'tenant delete');
    expect((await created).kind).toBe('ready');
    expect(claimsOf('waits').filter((c) => c.granted)).toEqual([{ tenant: 'waits', mode: 'exclusive', granted: true }]);
    expect(leases.heldByRuns()).toEqual([]);
  });

  it('refuses after its bound with a 409 that says to repeat, and never runs its work', async () => {
    let ran = 0;
    Object.assign(w.stubs, { 'dns.ensure': async () => ((ran += 1), []) });
    leases.hold('busy', 'exclusive', 'tenant reconcile');
    const started = Date.now();
    const answer = await w.env.client.workflow.execute<typeof leaseProbe>('leaseProbe', {
      taskQueue: w.taskQueue,
      workflowId: 'lease-probe/busy',
      args: [{ tenant: 'busy', mode: 'shared', waitMs: 500 }],
    });
    expect(answer).toEqual({
      kind: 'refused',
      error: 'conflict',
      message: 'another operation on tenant busy (tenant reconcile) is still running; repeat the call when it has answered',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(ran).toBe(0);
    expect(leases.released).not.toContain('busy');
  });

  it('holds a shared lease alongside another shared holder', async () => {
    Object.assign(w.stubs, { 'dns.ensure': async () => [] });
    leases.hold('together', 'shared', 'wifi key issue');
    const answer = await w.env.client.workflow.execute<typeof leaseProbe>('leaseProbe', {
      taskQueue: w.taskQueue,
      workflowId: 'lease-probe/together',
      args: [{ tenant: 'together', mode: 'shared', waitMs: 1000 }],
    });
    expect(answer).toEqual({ kind: 'done' });
    expect(claimsOf('together')).toEqual([{ tenant: 'together', mode: 'shared', granted: true }]);
  });
});

describe('a run on a named object', () => {
  const req = (name: string): WorkloadRequest => ({ tenant: 'names', name, cores: 1, memoryMb: 1024, actor: 'test' });
  const call = createWorkload;

  it('holds the tenant shared and its name alone: a held name waits, another name of the tenant goes on', async () => {
    Object.assign(w.stubs, {
      prepareWorkload: async () => ({ kind: 'proceed', index: 1, registered: true, diskGb: 8 }),
      registerWorkload: async (r: WorkloadRequest) => ({ kind: 'proceed', spec: { name: r.name } }),
      'hypervisor.ensure-vm': async () => [],
      'dns.publish-workload': async () => [],
      finishWorkload: async (r: { name: string }) => ({ name: r.name }),
    } as never);
    // A record of the same name is being put (its run holds the name).
    leases.hold('names/web', 'exclusive', 'record put');
    const web = call(req('web'));
    expect(await call(req('api'))).toMatchObject({ kind: 'done', workload: { name: 'api' } });
    expect(claimsOf('names/web').some((c) => !c.granted)).toBe(true);
    leases.free('names/web', 'record put');
    expect(await web).toMatchObject({ kind: 'done', workload: { name: 'web' } });
    expect(claimsOf('names').every((c) => c.mode === 'shared' && c.granted)).toBe(true);
    expect(claimsOf('names/web').every((c) => c.mode === 'exclusive')).toBe(true);
    // The name first, then the tenant: released inside out.
    expect(leases.released.filter((t) => t.startsWith('names'))).toEqual(['names/api', 'names', 'names/web', 'names']);
    expect(leases.heldByRuns()).toEqual([]);
  });
});

describe('the lease is released however the work ends', () => {
  it('a failed attempt: the parked run holds no lease, so the tenant is free for others', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', stepFails('dns'));
    expect(await create('parks')).toMatchObject({ kind: 'failed', step: 'dns' });
    expect((await w.env.client.workflow.getHandle(runIds.tenantCreate('parks')).describe()).status.name).toBe('RUNNING');
    expect(leases.heldByRuns()).toEqual([]);
  });

  it('an attempt that throws', async () => {
    Object.assign(w.stubs, {
      prepareTenant: async () => {
        throw ApplicationFailure.nonRetryable('the registry is gone', 'Test');
      },
    });
    await expect(create('throws')).rejects.toThrow();
    expect(leases.released).toContain('throws');
    expect(leases.heldByRuns()).toEqual([]);
  });

  it('a run cancelled while its step runs', async () => {
    const stubs = tenantCreateStubs(w);
    const dns = gate();
    stubs.step('dns.ensure', () => dns.wait());
    const id = runIds.tenantCreate('cancelled');
    const answer = create('cancelled').catch((err: unknown) => err);
    await waitFor(() => dns.entered > 0);
    expect(leases.heldByRuns()).toEqual(['cancelled']);
    await w.env.client.workflow.getHandle(id).cancel();
    await expect(w.env.client.workflow.getHandle(id).result()).rejects.toBeInstanceOf(WorkflowFailedError);
    await answer;
    dns.open();
    expect(leases.released).toContain('cancelled');
    expect(leases.heldByRuns()).toEqual([]);
  });
});
