import { describe, expect, it } from 'vitest';
import { conditionOf, leftAlone, lifeOf, mayCorrect, mayPrune, type ObjectRun } from './object-life.js';

const now = new Date('2026-11-29T12:00:00Z');
const at = (min: number) => new Date(now.getTime() + min * 60_000);
const run = (o: Partial<ObjectRun>): ObjectRun => ({
  workflowId: 'workload-create/acme/db',
  runId: 'r1',
  operation: 'workload-create',
  state: 'done',
  since: at(-10),
  ...o,
});
const failure = { step: 'dns', activity: 'dns.publish-workload', reason: 'BackendFailed', status: 503, answer: 'PATCH /zones/x -> 503' };

describe('lifeOf: what every mechanism decides an object from', () => {
  // The registry's row of the object, and a run holding a claim on it until `minutes` from now.
  const UNFINISHED = { registered: true, finished: false };
  const FINISHED = { registered: true, finished: true };
  const UNREGISTERED = { registered: false, finished: false };
  const claiming = (state: ObjectRun['state'], minutes: number) => [run({ state, claimExpiresAt: at(minutes) })];
  it.each([
    ['a run parked after a failed step holds its object, whatever the row says', UNFINISHED, claiming('parked', 60), 'held'],
    ['a run in flight holds an object the registry does not hold yet', UNREGISTERED, claiming('in-flight', 60), 'held'],
    ['a run in flight holds a finished object it re-applies', FINISHED, claiming('in-flight', 60), 'held'],
    ['a claim past its expiry (a run ended by hand) holds nothing', FINISHED, claiming('parked', -1), 'settled'],
    ['a finished object with only done runs is settled', FINISHED, [run({})], 'settled'],
    ['an object no run ever spoke of is settled when finished', FINISHED, [], 'settled'],
    ['an unfinished object whose run gave up is unfinished, not settled', UNFINISHED, [run({ state: 'given-up' })], 'unfinished'],
    ['nothing in the registry and no claiming run: absent', UNREGISTERED, [run({ state: 'done' })], 'absent'],
    [
      'the newest claiming run wins',
      FINISHED,
      [run({ state: 'done', since: at(-1) }), run({ workflowId: 'w2', state: 'parked', claimExpiresAt: at(5) })],
      'held',
    ],
  ] as const)('%s', (_why, row, runs, kind) => {
    const life = lifeOf(row, runs, now);
    expect(life.kind).toBe(kind);
    // Only a settled object is corrected; only an absent one may be pruned.
    expect(mayCorrect(life)).toBe(kind === 'settled');
    expect(mayPrune(life)).toBe(kind === 'absent');
  });
});

describe('conditionOf: what a read says beside its status', () => {
  it.each([
    ['no recorded run: ready when finished', true, [], { ready: true }],
    ['no recorded run: not ready when unfinished', false, [], { ready: false }],
    [
      'parked: not ready, with the failure',
      false,
      [run({ state: 'parked', failure })],
      { ready: false, run: { id: 'workload-create/acme/db', run_id: 'r1', operation: 'workload-create', state: 'parked' }, failure },
    ],
    ['done: ready, no failure shown', true, [run({ state: 'done', failure })], { ready: true, run: { id: 'workload-create/acme/db', state: 'done' } }],
    [
      'a reconcile that failed: not ready though its row is',
      true,
      [run({ workflowId: 'tenant-reconcile/acme', state: 'failed', failure })],
      { ready: false, failure },
    ],
    ['in flight: not ready', true, [run({ state: 'in-flight' })], { ready: false, run: { state: 'in-flight' } }],
    [
      'the newest run speaks',
      true,
      [run({ state: 'parked', failure, since: at(-20) }), run({ workflowId: 'w2', state: 'done', since: at(-1) })],
      { ready: true, run: { id: 'w2' } },
    ],
  ] as const)('%s', (_why, finished, runs, expected) => {
    const c = conditionOf(finished, runs);
    expect(c).toMatchObject(expected);
    if (!('failure' in expected)) expect(c.failure).toBeUndefined();
  });
});

describe('leftAlone: what a reconcile or a plan reports of an object it does not touch', () => {
  it.each([
    [
      'a parked create: in-flight with its run, the failed step, and that its repeat resumes it',
      { registered: true, finished: false },
      [run({ state: 'parked', failure, claimExpiresAt: at(60) })],
      {
        object: 'workload db (vm 10041)',
        result: 'in-flight',
        run: 'workload-create/acme/db',
        note: 'run workload-create/acme/db, parked after its dns step failed; its call repeated resumes the run',
      },
    ],
    [
      'a run in flight: in-flight with its run',
      { registered: false, finished: false },
      [run({ state: 'in-flight', claimExpiresAt: at(60) })],
      { result: 'in-flight', run: 'workload-create/acme/db', note: 'run workload-create/acme/db, in flight; the run finishes it' },
    ],
    [
      'a create that gave up: unfinished, its create to repeat',
      { registered: true, finished: false },
      [run({ state: 'given-up', failure })],
      { result: 'unfinished', run: 'workload-create/acme/db', note: expect.stringMatching(/ended given-up .*; repeat its create to finish it$/) },
    ],
    [
      'a delete that gave up: unfinished, its delete to repeat',
      { registered: true, finished: false },
      [run({ workflowId: 'workload-delete/acme/db', operation: 'workload-delete', state: 'given-up' })],
      { result: 'unfinished', run: 'workload-delete/acme/db', note: expect.stringMatching(/repeat its delete to finish it$/) },
    ],
    [
      'no run at all, the row unfinished: unfinished, no run named',
      { registered: true, finished: false },
      [],
      { result: 'unfinished', note: expect.stringMatching(/^no run holds it; repeat its create/) },
    ],
  ] as const)('%s', (_why, row, runs, expected) => {
    const o = leftAlone('workload db (vm 10041)', lifeOf(row, runs, now));
    expect(o).toMatchObject(expected);
    if (!('run' in expected)) expect(o?.run).toBeUndefined();
  });

  it('says nothing of a settled object (it is corrected) or an absent one (only a prune decides)', () => {
    expect(leftAlone('x', lifeOf({ registered: true, finished: true }, [run({})], now))).toBeUndefined();
    expect(leftAlone('x', lifeOf({ registered: false, finished: false }, [], now))).toBeUndefined();
  });
});
