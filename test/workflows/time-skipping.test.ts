import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runs } from '../../apps/api/runs.js';
import { DEFAULT_PARKED_MS } from '../../contracts/attempt.js';
import { OUTCOME } from '../../core/search-attributes.js';
import { runIds } from '../../contracts/ids.js';
import { attemptTenantCreate } from '../../contracts/tenant.js';
import { tenantCreate } from '../../workflows/index.js';
import { LEASE_WAIT_MS, leasePollPause } from '../../workflows/tenant-lease.js';
import { waitFor } from '../support/wait-for.js';
import { freshStubs, type leaseTable, startWorkflowEnv, stepFails, tenantCreateStubs, type WorkflowTestEnv } from '../support/workflow-env.js';

/**
 * The bounds of the run model at their real values (issue 43 item 5), which the other workflow
 * tests shorten through their inputs: a parked create gives up after the site's default parked
 * timeout (24 h) and not before, and a run finding its tenant held waits LEASE_WAIT_MS (120 s)
 * before its 409, and goes on when the holder lets go within it. The production workflow bundle
 * on Temporal's time-skipping test server, whose clock jumps to the next timer while the runs
 * wait: a day of a parked run in about a second. The registry and the backend steps are stubbed
 * (test/support/workflow-env.ts). The sweep's Schedule is not here: the test server has no
 * Schedules (CreateSchedule is unimplemented); test/e2e/reconcile-sweep.test.ts reads its spec.
 */
let w: WorkflowTestEnv;
let leases: ReturnType<typeof leaseTable>;

beforeAll(async () => {
  w = await startWorkflowEnv({ timeSkipping: true });
});
afterAll(async () => {
  await w?.stop();
});
beforeEach(() => {
  leases = freshStubs(w);
});

/** A create as the API sends it, under the site's default parked timeout (PARKED_RUN_TIMEOUT 24h). */
const create = (name: string) =>
  runs(w.env.client, w.taskQueue, DEFAULT_PARKED_MS).attempt(
    tenantCreate,
    attemptTenantCreate,
    { workflowId: runIds.tenantCreate(name), args: [{ name, parkedTimeoutMs: DEFAULT_PARKED_MS }], tenant: name },
    { name },
  );

/**
 * When (the test server's clock, ms) the run started, answered each update, and ended: read from
 * its history, since the clock the test reads after a wait may have been skipped further.
 */
async function times(workflowId: string): Promise<{ started: number; answered: number[]; ended?: number }> {
  const events = (await w.env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const at = (e: (typeof events)[number]) => Number(e.eventTime!.seconds) * 1000 + Math.round((e.eventTime!.nanos ?? 0) / 1e6);
  const ended = events.find((e) => e.workflowExecutionFailedEventAttributes || e.workflowExecutionCompletedEventAttributes);
  return {
    started: at(events[0]!),
    answered: events.filter((e) => e.workflowExecutionUpdateCompletedEventAttributes).map(at),
    ...(ended ? { ended: at(ended) } : {}),
  };
}

describe('a create parked after a failed step, at the real parked timeout', () => {
  it('gives up 24 h after parking when no repeat came, and not before', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', stepFails('dns'));
    expect(await create('parked')).toMatchObject({ kind: 'failed', step: 'dns' });
    // Awaiting the result lets the server skip to the run's next timer: its parked bound.
    const ended = await w.env.client.workflow
      .getHandle(runIds.tenantCreate('parked'))
      .result()
      .catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(WorkflowFailedError);
    expect(String((ended as WorkflowFailedError).cause?.message)).toMatch(/^gave up: step "dns" failed and no repeat of the create came within 86400 s/);
    const t = await times(runIds.tenantCreate('parked'));
    const parked = t.ended! - t.answered[0]!;
    expect(parked).toBeGreaterThanOrEqual(DEFAULT_PARKED_MS);
    expect(parked).toBeLessThan(DEFAULT_PARKED_MS + 60_000);
    expect(leases.heldByRuns()).toEqual([]);
  });

  it('resumes in the same run when the repeat comes a minute before the bound', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', stepFails('dns'));
    const id = runIds.tenantCreate('late');
    expect(await create('late')).toMatchObject({ kind: 'failed', step: 'dns' });
    const parkedRun = (await w.env.client.workflow.getHandle(id).describe()).runId;
    await w.env.sleep(DEFAULT_PARKED_MS - 60_000);
    stubs.step('dns.ensure', async () => []);
    expect(await create('late')).toMatchObject({ kind: 'ready' });
    const run = await w.env.client.workflow.getHandle(id).describe();
    expect({ runId: run.runId, outcome: run.typedSearchAttributes.get(OUTCOME) }).toEqual({ runId: parkedRun, outcome: 'resumed' });
    const t = await times(id);
    expect(t.answered[1]! - t.answered[0]!).toBeGreaterThanOrEqual(DEFAULT_PARKED_MS - 60_000);
    expect(stubs.calls('dns.ensure')).toBe(2);
  });
});

/** How many claims a run makes before it refuses, waiting the whole bound. */
function claimsOverTheBound(): number {
  let claims = 1;
  for (let waited = 0, polls = 0; waited < LEASE_WAIT_MS; polls++, claims++) waited += Math.min(leasePollPause(polls), LEASE_WAIT_MS - waited);
  return claims;
}

describe('a create finding its tenant held, at the real lease wait', () => {
  it(`refuses with a 409 that says to repeat once it has waited ${LEASE_WAIT_MS / 1000} s, having never run its work`, async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', async () => []);
    leases.hold('held', 'exclusive', 'tenant delete');
    const answer = create('held');
    // The attempt's answer is an update's: the server skips time only while the test sleeps.
    await waitFor(() => leases.claims.length > 0);
    await w.env.sleep(LEASE_WAIT_MS + 5_000);
    expect(await answer).toMatchObject({
      kind: 'refused',
      error: 'conflict',
      message: 'another operation on tenant held (tenant delete) is still running; repeat the call when it has answered',
    });
    // A claim at 0 and after each pause (250 ms, growing to 2 s) up to the bound: 70, not the 481
    // of a claim every 250 ms; each claim's own time adds to the wait (the test server's clock runs on).
    expect(leases.claims).toHaveLength(claimsOverTheBound());
    expect(leases.claims.every((c) => !c.granted)).toBe(true);
    const t = await times(runIds.tenantCreate('held'));
    const waited = t.answered[0]! - t.started;
    expect(waited).toBeGreaterThanOrEqual(LEASE_WAIT_MS);
    expect(waited).toBeLessThan(LEASE_WAIT_MS + 30_000);
    expect(stubs.calls('prepareTenant')).toBe(0);
  });

  it('goes on when the holder lets go a second before the bound', async () => {
    const stubs = tenantCreateStubs(w);
    stubs.step('dns.ensure', async () => []);
    leases.hold('freed', 'exclusive', 'tenant reconcile');
    const answer = create('freed');
    await waitFor(() => leases.claims.length > 0);
    await w.env.sleep(LEASE_WAIT_MS - 1_000);
    leases.free('freed', 'tenant reconcile');
    await w.env.sleep(2_000);
    expect(await answer).toMatchObject({ kind: 'ready', outcome: 'created' });
    const t = await times(runIds.tenantCreate('freed'));
    expect(t.answered[0]! - t.started).toBeGreaterThanOrEqual(LEASE_WAIT_MS - 1_000);
    expect(leases.heldByRuns()).toEqual([]);
  });
});
