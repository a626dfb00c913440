import { describe, it, expect } from 'vitest';
import {
  ingestRoute,
  jsonEqual,
  projectHeaderValue,
  readRoute,
  routeIds,
  selectHeaderName,
  type LogRouteInputs,
} from '../../activities/log-store/routes.js';
import { evaluateRoutes, validateRoutes, type GatewayRequest } from '../../apps/lab/simulators/logstore/caddy-routes.js';

const acme: LogRouteInputs = { tenant: 'acme', accountId: 1001, ingestToken: 'ing-acme', readToken: 'read-acme', upstream: 'vl:9428' };

/** Run a request through the tenant's two routes plus a catch-all, recording what reached VictoriaLogs. */
async function through(method: string, path: string, headers: Record<string, string>) {
  let reached: { account: string | null; project: string | null; auth: string | null; select: string | null } | undefined;
  const routes = [ingestRoute(acme), readRoute(acme), { handle: [{ handler: 'static_response', status_code: 401 }] }];
  const req: GatewayRequest = { method, path, query: new URLSearchParams(), headers: new Headers(headers), body: new Uint8Array() };
  const res = await evaluateRoutes(routes, req, (dial) =>
    dial === 'vl:9428'
      ? (r) => {
          reached = {
            account: r.headers.get('AccountID'),
            project: r.headers.get('ProjectID'),
            auth: r.headers.get('Authorization'),
            select: r.headers.get(selectHeaderName),
          };
          return new Response(null, { status: 200 });
        }
      : undefined,
  );
  return { status: res?.status ?? 200, reached };
}

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

  it('builds routes a Caddy config load accepts', () => {
    expect(() => validateRoutes([ingestRoute(acme), readRoute(acme)], 'test')).not.toThrow();
  });
});

describe('what a request reaches through the tenant routes', () => {
  const rows: Array<[string, string, string, Record<string, string>, number, string | null, string | null]> = [
    // reason, method, path, headers, status, AccountID at VictoriaLogs, ProjectID at VictoriaLogs
    ['ingest token writes project 0 of its account', 'POST', '/insert/jsonline', { Authorization: 'Bearer ing-acme' }, 200, '1001', '0'],
    ['ingest token cannot pick another account', 'POST', '/insert/jsonline', { Authorization: 'Bearer ing-acme', AccountID: '7', ProjectID: '2' }, 200, '1001', '0'],
    ['ingest token cannot read', 'GET', '/select/logsql/query', { Authorization: 'Bearer ing-acme' }, 401, null, null],
    ['read token cannot write', 'POST', '/insert/jsonline', { Authorization: 'Bearer read-acme' }, 401, null, null],
    ['read without the select header is project 0', 'GET', '/select/logsql/query', { Authorization: 'Bearer read-acme' }, 200, '1001', '0'],
    ['read of project 1 by header', 'GET', '/select/logsql/query', { Authorization: 'Bearer read-acme', [selectHeaderName]: '1001-1' }, 200, '1001', '1'],
    ['read of project 2 by header', 'GET', '/select/logsql/query', { Authorization: 'Bearer read-acme', [selectHeaderName]: '1001-2' }, 200, '1001', '2'],
    ['header naming another account is refused', 'GET', '/select/logsql/query', { Authorization: 'Bearer read-acme', [selectHeaderName]: '1002-0' }, 403, null, null],
    ['header naming an unknown project is refused', 'GET', '/select/logsql/query', { Authorization: 'Bearer read-acme', [selectHeaderName]: '1001-3' }, 403, null, null],
    ['tenant headers sent by a reader are overridden', 'GET', '/select/logsql/query', { Authorization: 'Bearer read-acme', AccountID: '1002' }, 200, '1001', '0'],
    ['unknown token is refused', 'GET', '/select/logsql/query', { Authorization: 'Bearer nope' }, 401, null, null],
    ['no token is refused', 'POST', '/insert/jsonline', {}, 401, null, null],
  ];

  it.each(rows)('%s', async (_reason, method, path, headers, status, account, project) => {
    const r = await through(method, path, headers);
    expect(r.status).toBe(status);
    expect(r.reached?.account ?? null).toBe(account);
    expect(r.reached?.project ?? null).toBe(project);
    if (r.reached) {
      expect(r.reached.auth).toBeNull();
      expect(r.reached.select).toBeNull();
    }
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
