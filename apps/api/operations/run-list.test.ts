import { describe, expect, it } from 'vitest';
import * as workflows from '../../../workflows/index.js';
import { operationOf } from '../../../core/search-attributes.js';
import { OPERATIONS } from '../schemas/run.js';
import { openPage, runQuery, sealPage } from './run-list.js';

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
