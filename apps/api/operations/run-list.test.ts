import { describe, expect, it } from 'vitest';
import { TypedSearchAttributes, type SearchAttributePair } from '@temporalio/common';
import { encodeUnifiedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes.js';
import { msToTs } from '@temporalio/common/lib/time.js';
import * as workflows from '../../../workflows/index.js';
import type { ObjectRun } from '../../../core/object-life.js';
import { FAILED_STEPS, OPERATION, operationOf, OUTCOME, STEP, TENANT_NAME } from '../../../core/search-attributes.js';
import { OPERATIONS } from '../schemas/run.js';
import { ofStatus, openPage, runQuery, sealPage, summaryOf } from './run-list.js';

describe('the visibility query of a run filter', () => {
  it.each([
    [{}, ''],
    [{ tenant: 'acme' }, "TenantName = 'acme'"],
    [{ tenant: 'acme', operation: 'workload-create' as const }, "TenantName = 'acme' AND Operation = 'workload-create'"],
    [{ status: 'parked' as const }, "ExecutionStatus = 'Running' AND Outcome = 'failed'"],
    [{ status: 'timed-out' as const }, "ExecutionStatus = 'TimedOut'"],
    [{ tenant: 'b', status: 'completed' as const }, "TenantName = 'b' AND ExecutionStatus = 'Completed'"],
  ])('%j -> %s', (filter, query) => {
    expect(runQuery(filter)).toBe(query);
  });

  it('knows every operation a workflow of the service runs, and no other', () => {
    expect([...OPERATIONS].sort()).toEqual(Object.keys(workflows).map(operationOf).sort());
  });
});

describe('page tokens', () => {
  const key = Buffer.alloc(32, 7);
  it("open what this site sealed and refuse anything else with a 400's reason", () => {
    const token = new Uint8Array([1, 2, 3, 250]);
    const page = sealPage(key, token);
    expect(Buffer.from(openPage(key, page))).toEqual(Buffer.from(token));
    for (const bad of ['', 'AAAA', page.slice(0, -2), sealPage(Buffer.alloc(32, 8), token), `${page}AA`])
      expect(() => openPage(key, bad), bad).toThrow(/page: must be a next_page value/);
  });
});

describe('a run as the list shows it', () => {
  const failure = { step: 'dns', reason: 'PowerDNS answered 500', backend: 'powerdns', status: 500 };
  const parked: ObjectRun = { workflowId: 'tenant-create/broken', runId: 'r1', operation: 'tenant-create', state: 'parked', failure, since: new Date(0) };
  const running: ObjectRun = { ...parked, state: 'in-flight', failure: null };
  const execution = (pairs: SearchAttributePair[]) => ({
    execution: { workflowId: 'tenant-create/broken', runId: 'r1' },
    status: 1, // RUNNING
    startTime: msToTs(1_000),
    searchAttributes: {
      indexedFields: encodeUnifiedSearchAttributes(
        undefined,
        new TypedSearchAttributes([{ key: TENANT_NAME, value: 'broken' }, { key: OPERATION, value: 'tenant-create' }, ...pairs]),
      ),
    },
  });
  // Visibility takes a run's search attributes a moment after the registry holds its failure.
  it.each([
    [
      'visibility behind the registry',
      parked,
      [{ key: STEP, value: 'dns' }],
      { status: 'parked', outcome: 'failed', step: 'dns', failed_steps: ['dns'], failure },
    ],
    ['visibility behind, not even its step', parked, [], { status: 'parked', outcome: 'failed', step: 'dns', failed_steps: ['dns'], failure }],
    [
      'visibility caught up',
      parked,
      [
        { key: STEP, value: 'dns' },
        { key: OUTCOME, value: 'failed' },
        { key: FAILED_STEPS, value: ['dns'] },
      ],
      { status: 'parked', outcome: 'failed', step: 'dns', failed_steps: ['dns'], failure },
    ],
    [
      'resumed: in flight again, its earlier failure kept in failed_steps, no failure shown',
      running,
      [
        { key: STEP, value: 'state' },
        { key: OUTCOME, value: 'failed' },
        { key: FAILED_STEPS, value: ['dns'] },
      ],
      { status: 'running', outcome: 'failed', step: 'state', failed_steps: ['dns'] },
    ],
  ] as [string, ObjectRun, SearchAttributePair[], Record<string, unknown>][])('%s', (_, recorded, pairs, shown) => {
    const summary = summaryOf(execution(pairs), recorded);
    expect(summary).toMatchObject(shown);
    if (!('failure' in shown)) expect(summary).not.toHaveProperty('failure');
  });

  // What visibility's query selects for `status=parked` (Running, Outcome failed) and `running`
  // (Running), against what each run is shown as.
  it('a status filter answers only the runs shown in that status', () => {
    const failedBefore = [
      { key: STEP, value: 'state' },
      { key: OUTCOME, value: 'failed' },
      { key: FAILED_STEPS, value: ['dns'] },
    ];
    const resumed = summaryOf(execution(failedBefore), running);
    const stillParked = summaryOf(execution(failedBefore), parked);
    expect(ofStatus([resumed, stillParked], 'parked')).toEqual([stillParked]);
    expect(ofStatus([resumed, stillParked], 'running')).toEqual([resumed]);
    expect(ofStatus([resumed, stillParked], undefined)).toEqual([resumed, stillParked]);
  });
});
