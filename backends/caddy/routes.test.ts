import { describe, it, expect } from 'vitest';
import { projectHeaderValue } from '../../core/tenant-view.js';
import { ingestRoute, jsonEqual, readRoute, routeIds, type LogRouteInputs } from './routes.js';

const acme: LogRouteInputs = { tenant: 'acme', accountId: 1001, ingestToken: 'ing-acme', readToken: 'read-acme', upstream: 'vl:9428' };

// What these routes let through is proved against the real Caddy in test/integration/log-store.test.ts.
describe('log-store route derivations', () => {
  it.each([
    [1001, 0, '1001-0'],
    [1001, 2, '1001-2'],
    [1062, 1, '1062-1'],
  ])('project header value for account %i project %i is %s', (account, project, want) => {
    expect(projectHeaderValue(account, project)).toBe(want);
  });

  it('names both routes after the tenant, so they can be addressed by @id', () => {
    expect(routeIds('acme')).toEqual({ ingest: 'svc-logs-acme-ingest', read: 'svc-logs-acme-read' });
    expect(ingestRoute(acme)['@id']).toBe('svc-logs-acme-ingest');
    expect(readRoute(acme)['@id']).toBe('svc-logs-acme-read');
  });
});

describe('jsonEqual', () => {
  it.each([
    ['key order does not matter', { a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }, true],
    ['array order matters', [1, 2], [2, 1], false],
    ['a missing key differs', { a: 1 }, { a: 1, b: 2 }, false],
    ['null differs from absent', { a: null }, {}, false],
  ])('%s', (_reason, a, b, want) => {
    expect(jsonEqual(a, b)).toBe(want);
  });
});
