import { connect } from 'node:net';
import { pino } from 'pino';
import { startApi } from '../../apps/api/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';
import { chunkedUpload, inChunks, sendChunked } from '../support/chunked.js';

/**
 * The HTTP rules every route shares (spec: Authentication, Errors, Limits, Versioning): bearer
 * authentication, the error envelope, request validation, the 64 KB body limit, the service
 * routes, and the request log.
 */
let site: TestSite;
let created: { api_token: string; dns: { tsig_secret: string }; state: { secret_key: string } };

const UNAUTHORIZED = '{"error":"unauthorized"}';
const TOO_LARGE = '{"error":"request body larger than 64 KB"}';
const BUILD = { SERVICE_VERSION: '0.11.2', SERVICE_COMMIT: 'c0ffee1', SERVICE_BUILT: '2026-11-21T10:00:00Z' };

/** Every error answer of this suite, checked against the envelope at the end. */
const errors: { what: string; status: number; text: string; headers: Headers }[] = [];
async function call(...args: Parameters<TestSite['call']>) {
  const r = await site.call(...args);
  if (r.status >= 400) errors.push({ what: `${args[0]} ${args[1]}`, status: r.status, text: r.text, headers: r.headers });
  return r;
}

beforeAll(async () => {
  site = await startTestSite({ env: BUILD });
  const r = await site.call('POST', '/v1/tenants', { body: { name: 'acme' } });
  expect(r.status, r.text).toBe(201);
  created = r.body;
});
afterAll(async () => {
  await site?.stop();
});

/** A tenant token with the right shape and a MAC that is not the site's. */
function forged(token: string): string {
  const parts = token.split('.');
  const mac = parts[3]!;
  const other = mac.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
  return [...parts.slice(0, 3), other].join('.');
}

describe('authentication (401 with WWW-Authenticate)', () => {
  it.each([
    ['no Authorization header', { token: null }],
    ['a Basic credential', { token: null, headers: { authorization: 'Basic x' } }],
    ['Bearer with no token', { token: null, headers: { authorization: 'Bearer' } }],
    ['a token in place of the scheme', { token: null, headers: { authorization: 'op-0123456789abcdef0123' } }],
    ['an unknown token', { token: 'not-a-token-anyone-issued-0123456789' }],
    ['the operator token with one character more', { token: 'OPERATOR+x' }],
    ['a forged tenant token (dvt1.acme.<nonce>.<bad mac>)', { token: 'FORGED' }],
    ['a tenant token with its MAC cut off', { token: 'TRUNCATED' }],
  ] as [string, { token: string | null; headers?: Record<string, string> }][])('%s', async (_case, opts) => {
    const token =
      opts.token === 'OPERATOR+x'
        ? `${site.operatorToken}x`
        : opts.token === 'FORGED'
          ? forged(created.api_token)
          : opts.token === 'TRUNCATED'
            ? created.api_token.split('.').slice(0, 3).join('.')
            : opts.token;
    for (const [method, path, body] of [
      ['GET', '/v1/tenants'],
      ['GET', '/v1/tenants/acme'],
      ['POST', '/v1/tenants', { name: 'acme' }],
      ['DELETE', '/v1/tenants/acme'],
    ] as const) {
      const r = await call(method, path, { ...opts, token, body });
      expect([r.status, r.text], `${method} ${path}`).toEqual([401, UNAUTHORIZED]);
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="svc-api"');
    }
  });

  it('the forged token really differs from the genuine one, which is accepted', async () => {
    expect(forged(created.api_token)).not.toBe(created.api_token);
    const r = await call('GET', '/v1/tenants/acme', { token: created.api_token });
    expect(r.status, r.text).toBe(200);
  });

  it('a route that does not exist answers 401 before anything else, so routes cannot be probed', async () => {
    const r = await call('GET', '/v1/no-such-route', { token: null });
    expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
    const known = await call('GET', '/v1/no-such-route');
    expect([known.status, known.text]).toEqual([404, '{"error":"not found"}']);
  });
});

describe('authorization', () => {
  it('a tenant token on an operator-only route is 403 operator only (no WWW-Authenticate)', async () => {
    const r = await call('GET', '/v1/tenants', { token: created.api_token });
    expect([r.status, r.text]).toEqual([403, '{"error":"operator only"}']);
    expect(r.headers.get('www-authenticate')).toBeNull();
  });
});

// Issue 27 item 6: validation ran first, so a tenant token with a bad request got 400, not 403.
describe('authorization before validation on operator-only routes', () => {
  const BAD_REQUESTS: [string, string, { body?: unknown; raw?: string; headers?: Record<string, string> }][] = [
    ['POST', '/v1/admissions', { body: { name: 'Bad!' } }],
    ['POST', '/v1/admissions', { body: { name: 'newco', colour: 1 } }],
    ['POST', '/v1/admissions', { raw: '{"name":"newco"}', headers: { 'content-type': 'text/plain' } }],
    ['POST', '/v1/admissions', { body: { name: 'newco', mac: 'nope' }, headers: { 'idempotency-key': '' } }],
    ['DELETE', '/v1/admissions/Bad!', {}],
    ['DELETE', '/v1/admissions/nobody', { body: { x: 1 } }],
    ['POST', '/v1/tenants/Bad!/reconcile', {}],
    ['POST', '/v1/tenants/acme/reconcile?prune=maybe', {}],
    ['POST', '/v1/tenants/acme/reconcile', { body: { x: 1 } }],
  ];

  it.each(BAD_REQUESTS)('a tenant token: %s %s with a bad request is 403 operator only', async (method, path, opts) => {
    const r = await call(method, path, { ...opts, token: created.api_token });
    expect([r.status, r.text]).toEqual([403, '{"error":"operator only"}']);
  });

  it.each(BAD_REQUESTS)('the operator: %s %s is 400, with the reason', async (method, path, opts) => {
    const r = await call(method, path, opts);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toEqual(expect.any(String));
  });

  it('enrollment and egress agent tokens are still 401 there, whatever they send', async () => {
    const admitted = await call('POST', '/v1/admissions', { body: { name: 'newbie' } });
    expect(admitted.status, admitted.text).toBe(201);
    for (const token of [admitted.body.enrollment_token as string, site.egressToken]) {
      for (const [method, path, opts] of BAD_REQUESTS) {
        const r = await call(method, path, { ...opts, token });
        expect([r.status, r.text], `${method} ${path}`).toEqual([401, UNAUTHORIZED]);
      }
    }
    // Presenting the enrollment token there did not spend it.
    const enrolled = await call('POST', '/v1/tenants', { body: { name: 'newbie' }, token: admitted.body.enrollment_token });
    expect(enrolled.status, enrolled.text).toBe(201);
  });
});

describe('request validation (400)', () => {
  it.each([
    ['an unknown field, named', { body: { name: 'beta', colour: 'blue' } }, '{"error":"unknown field \\"colour\\""}'],
    ['two unknown fields, both named', { body: { name: 'beta', colour: 'blue', size: 1 } }, '{"error":"unknown fields \\"colour\\", \\"size\\""}'],
    ['a missing field', { body: {} }, '{"error":"name: required"}'],
    ['a field of the wrong type is not called missing', { body: { name: 5 } }, '{"error":"name: Invalid input: expected string, received number"}'],
    ['a name off the pattern', { body: { name: 'Beta' } }, '{"error":"name: must match ^[a-z][a-z0-9]{0,7}$"}'],
    ['an index out of range', { body: { name: 'beta', index: 63 } }, '{"error":"index: Too big: expected number to be <=62"}'],
    ['a body that is not an object', { body: ['beta'] }, '{"error":"Invalid input: expected object, received array"}'],
    ['malformed JSON', { raw: '{"name": "beta"', headers: { 'content-type': 'application/json' } }, '{"error":"malformed JSON in request body"}'],
    // JSON.parse keeps the last of two; a proxy may read the first: refused, and `beta` (the last) is not registered below.
    [
      'a field named twice',
      { raw: '{"name":"zeta","name":"beta"}', headers: { 'content-type': 'application/json' } },
      '{"error":"duplicate field \\"name\\""}',
    ],
    [
      'a field named twice through an escape',
      { raw: '{"name":"zeta","n\\u0061me":"beta"}', headers: { 'content-type': 'application/json' } },
      '{"error":"duplicate field \\"name\\""}',
    ],
    [
      'a name not a plain field name, twice, is not echoed',
      { raw: '{"name":"beta","a\\nb":1,"a\\nb":2}', headers: { 'content-type': 'application/json' } },
      '{"error":"duplicate field in the request body"}',
    ],
    ['a text/plain body', { raw: '{"name":"beta"}', headers: { 'content-type': 'text/plain' } }, '{"error":"content type must be application/json"}'],
    ['a body with no content type', { raw: '{"name":"beta"}' }, '{"error":"content type must be application/json"}'],
  ] as [string, { body?: unknown; raw?: string; headers?: Record<string, string> }, string][])('%s', async (_case, opts, text) => {
    const r = await call('POST', '/v1/tenants', opts);
    expect([r.status, r.text]).toEqual([400, text]);
  });

  it('a refused create registers nothing', async () => {
    const r = await call('GET', '/v1/tenants/beta');
    expect([r.status, r.text]).toEqual([404, '{"error":"tenant not found"}']);
  });

  it('application/json with a charset parameter is JSON', async () => {
    const r = await call('POST', '/v1/tenants', { raw: '{"name":"beta","colour":1}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect([r.status, r.text]).toEqual([400, '{"error":"unknown field \\"colour\\""}']);
  });
});

// A parameter the route does not declare is a typo or another API's: ignored, `reconcile?pln=true`
// would reconcile (writing to every backend) where the caller asked for a plan.
describe('query parameters a route does not declare (400)', () => {
  it.each([
    ['a misspelt plan on reconcile', 'POST', '/v1/tenants/acme/reconcile?pln=true', '{"error":"unknown query parameter \\"pln\\""}'],
    ['beside declared ones', 'GET', '/v1/runs?limit=5&tennant=acme', '{"error":"unknown query parameter \\"tennant\\""}'],
    ['on a route that declares none', 'GET', '/v1/tenants/acme?x=1', '{"error":"unknown query parameter \\"x\\""}'],
    ['two, both named', 'GET', '/v1/tenants/acme/workloads?a=1&b', '{"error":"unknown query parameters \\"a\\", \\"b\\""}'],
    ['a name not a plain parameter name is not echoed', 'GET', '/v1/fabric/egress?%0Ax%22=1', '{"error":"unknown query parameter"}'],
    // Which of two values wins is the parser's choice; a proxy's log may show the other.
    ['a declared one given twice', 'POST', '/v1/tenants/acme/reconcile?plan=true&plan=false', '{"error":"duplicate query parameter \\"plan\\""}'],
    [
      'two given twice, both named',
      'GET',
      '/v1/runs?limit=5&status=running&limit=5&status=parked',
      '{"error":"duplicate query parameters \\"limit\\", \\"status\\""}',
    ],
    ['a number is digits only', 'GET', '/v1/runs?limit=0x10', '{"error":"limit: must be a whole number from 1 to 100"}'],
    ['an exponent is not a whole number here', 'GET', '/v1/events?limit=1e2', '{"error":"limit: must be a whole number from 1 to 500"}'],
    ['an empty number is not 0', 'GET', '/v1/events?after=', '{"error":"after: must be a whole number, 0 or more"}'],
    ['out of range says the range', 'GET', '/v1/sweeps?limit=101', '{"error":"limit: must be a whole number from 1 to 100"}'],
  ])('%s', async (_case, method, path, text) => {
    const r = await call(method, path);
    expect([r.status, r.text]).toEqual([400, text]);
  });

  it('numbers written as digits answer', async () => {
    for (const path of ['/v1/runs?limit=010', '/v1/events?after=0&limit=500', '/v1/sweeps?limit=1']) {
      const r = await call('GET', path);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
    }
  });

  it('the refused reconcile ran nothing; the declared parameters still answer', async () => {
    const runs = await call('GET', '/v1/tenants/acme/runs?operation=tenant-reconcile');
    expect([runs.status, runs.body.runs], runs.text).toEqual([200, []]);
    const plan = await call('POST', '/v1/tenants/acme/reconcile?plan=true');
    expect([plan.status, plan.body.plan], plan.text).toEqual([200, true]);
  });

  it('a path no route serves is still 404', async () => {
    const r = await call('GET', '/v1/nowhere?x=1');
    expect(r.status, r.text).toBe(404);
  });
});

const chunked = (method: string, path: string, chunks: string[]) => sendChunked(site.url, site.operatorToken, method, path, chunks);

// Issue 27 item 5: a route that takes no body ignored one; any field there is unknown (rule 6).
describe('routes that take no body', () => {
  const NO_BODY = '{"error":"this route takes no request body"}';
  const routes = [
    ['POST', '/v1/tenants/ghost/reconcile'],
    ['DELETE', '/v1/tenants/ghost'],
    ['DELETE', '/v1/tenants/acme/workloads/nope'],
    ['DELETE', '/v1/tenants/acme/records/nope'],
    ['DELETE', '/v1/tenants/acme/certificates/nope'],
    ['DELETE', '/v1/admissions/nobody'],
  ] as const;

  it.each(routes)('%s %s refuses a JSON object, an empty object and bytes of any type', async (method, path) => {
    for (const opts of [{ body: { x: 1 } }, { body: {} }, { raw: 'abc', headers: { 'content-type': 'text/plain' } }, { raw: '{"x":1}' }]) {
      const r = await call(method, path, opts);
      expect([r.status, r.text], JSON.stringify(opts)).toEqual([400, NO_BODY]);
    }
    const streamed = await chunked(method, path, ['{"x"', ':1}']);
    expect([streamed.status, streamed.text]).toEqual([400, NO_BODY]);
  });

  it('no body, an empty one or an empty chunked one is no body: the route answers as always', async () => {
    for (const opts of [{}, { raw: '' }, { raw: '', headers: { 'content-type': 'application/json' } }]) {
      const r = await call('DELETE', '/v1/tenants/acme/workloads/nope', opts);
      expect([r.status, r.text], JSON.stringify(opts)).toEqual([404, '{"error":"workload not found"}']);
    }
    const streamed = await chunked('DELETE', '/v1/tenants/acme/workloads/nope', []);
    expect([streamed.status, streamed.text]).toEqual([404, '{"error":"workload not found"}']);
    const reconcile = await call('POST', '/v1/tenants/ghost/reconcile', { raw: '' });
    expect([reconcile.status, reconcile.text]).toEqual([404, '{"error":"tenant not found"}']);
  });
});

/** A JSON body of exactly `size` bytes: a create with an unknown `pad` field. */
function bodyOfSize(size: number): string {
  const head = '{"name":"beta","pad":"';
  const tail = '"}';
  return head + 'x'.repeat(size - head.length - tail.length) + tail;
}

describe('request body limit (64 KB)', () => {
  it('a body of exactly 64 KB is read (and refused for its content, not its size)', async () => {
    const r = await call('POST', '/v1/tenants', { raw: bodyOfSize(64 * 1024), headers: { 'content-type': 'application/json' } });
    expect([r.status, r.text]).toEqual([400, '{"error":"unknown field \\"pad\\""}']);
  });

  it('one byte more, with Content-Length, is 413', async () => {
    const r = await call('POST', '/v1/tenants', { raw: bodyOfSize(64 * 1024 + 1), headers: { 'content-type': 'application/json' } });
    expect([r.status, r.text]).toEqual([413, TOO_LARGE]);
  });

  it('a 70 KB body with Content-Length is 413, before authentication', async () => {
    const r = await call('POST', '/v1/tenants', { token: null, raw: bodyOfSize(70 * 1024), headers: { 'content-type': 'application/json' } });
    expect([r.status, r.text]).toEqual([413, TOO_LARGE]);
  });

  it('a chunked body is refused with 413 while it is still arriving', async () => {
    const r = await chunkedUpload(site.url, site.operatorToken, 'POST', '/v1/tenants', '{"name":"beta","pad":"', 70 * 1024);
    errors.push({ what: 'POST /v1/tenants (chunked)', status: r.status ?? 0, text: r.text, headers: new Headers() });
    expect([r.status, r.text]).toEqual([413, TOO_LARGE]);
    expect(r.sent).toBeGreaterThan(64 * 1024);
  });

  it('a chunked body under the limit is read whole', async () => {
    const r = await chunked('POST', '/v1/tenants', inChunks(bodyOfSize(60 * 1024)));
    expect([r.status, r.text]).toEqual([400, '{"error":"unknown field \\"pad\\""}']);
  });
});

describe('service routes need no token', () => {
  it.each([
    ['/healthz', '{"status":"ok"}'],
    ['/readyz', '{"status":"ok","database":"ok"}'],
    ['/version', JSON.stringify({ version: BUILD.SERVICE_VERSION, commit: BUILD.SERVICE_COMMIT, built: BUILD.SERVICE_BUILT })],
  ])('%s', async (path, text) => {
    const r = await call('GET', path, { token: null });
    expect([r.status, r.text]).toEqual([200, text]);
    // A junk token does not turn them away either.
    const junk = await call('GET', path, { token: 'junk' });
    expect([junk.status, junk.text]).toEqual([200, text]);
  });

  it('/version carries version, commit and built as strings by default too', async () => {
    const r = await call('GET', '/version', { token: null });
    expect(Object.keys(r.body).sort()).toEqual(['built', 'commit', 'version']);
    for (const v of Object.values(r.body)) expect(typeof v).toBe('string');
  });

  it('/openapi.json is the OpenAPI 3.1 description, version 1', async () => {
    const r = await call('GET', '/openapi.json', { token: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.info.version).toBe('1');
    expect(Object.keys(r.body.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/version', '/v1/tenants', '/v1/tenants/{t}']));
  });

  it('/docs is an HTML page reading /openapi.json', async () => {
    const r = await call('GET', '/docs', { token: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.text).toMatch(/^<!doctype html>/i);
    expect(r.text).toContain('/openapi.json');
    // The viewer comes from this service, not a CDN (test/e2e/docs-page.test.ts renders it offline).
    expect(r.text).not.toMatch(/<script[^>]+src="https?:/);
    const viewer = await call('GET', '/docs/viewer.js', { token: null });
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toMatch(/^text\/javascript/);
  });
});

/** Sends `raw` on a fresh connection and returns everything the server sent before closing. */
function rawExchange(raw: string, port = Number(new URL(site.url).port)): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(raw));
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const at = received.indexOf('\r\n\r\n');
      resolve({ status: Number(received.split(' ')[1]), head: received.slice(0, at), body: received.slice(at + 4) });
    });
  });
}

// Issue 16 item 7: answers Node and the adapter make on their own had empty bodies, and a load
// balancer's HTTP/1.0 health check (no Host header) was refused.
describe("the HTTP server's own answers", () => {
  it.each([
    ['a malformed request line', 'GET /healthz HTTP/1.1 junk\r\n\r\n', 400, '{"error":"malformed HTTP request"}'],
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nno-colon\r\n\r\n', 400, '{"error":"malformed HTTP request"}'],
    ['headers over 16 KB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`, 431, '{"error":"request headers too large"}'],
    ['HTTP/1.1 without a Host header', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400, '{"error":"missing Host header"}'],
    // Issue 27 item 7: RFC 9112 3.2, more than one Host field line is a 400 (which Host is meant?).
    [
      'two Host headers',
      'GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n',
      400,
      '{"error":"more than one Host header"}',
    ],
    [
      'the same Host twice, on /v1',
      'GET /v1/tenants HTTP/1.1\r\nHost: x\r\nhost: x\r\nConnection: close\r\n\r\n',
      400,
      '{"error":"more than one Host header"}',
    ],
    ['two Host headers in HTTP/1.0', 'GET /healthz HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n', 400, '{"error":"more than one Host header"}'],
  ])('%s: %s with the {error} body', async (_case, raw, status, body) => {
    const r = await rawExchange(raw);
    expect([r.status, r.body]).toEqual([status, body]);
    expect(r.head).toMatch(/\r\ncontent-type: application\/json/i);
  });

  it.each([
    ['/healthz', '{"status":"ok"}'],
    ['/version', JSON.stringify({ version: BUILD.SERVICE_VERSION, commit: BUILD.SERVICE_COMMIT, built: BUILD.SERVICE_BUILT })],
  ])('HTTP/1.0 without a Host header (a load balancer health check): GET %s answers 200 on every interface', async (path, text) => {
    // Listening on every interface (LISTEN_ADDRESS=:8080, the default) is where it used to fail:
    // with no listen host there was no Host to assume either.
    const api = await startApi({ config: { ...site.config, listen: { host: undefined, port: 0 } }, log: pino({ level: 'silent' }) });
    try {
      const r = await rawExchange(`GET ${path} HTTP/1.0\r\n\r\n`, api.port);
      expect([r.status, r.body]).toEqual([200, text]);
      // /v1 still refuses it (401 once migrated here, 503 before), with the {error} body.
      const v1 = await rawExchange('GET /v1/tenants HTTP/1.0\r\n\r\n', api.port);
      expect([401, 503]).toContain(v1.status);
      expect(Object.keys(JSON.parse(v1.body))).toEqual(['error']);
    } finally {
      await api.close();
    }
  });
});

describe('the error envelope', () => {
  it('every error answer of this suite is {"error": <string>} and names no host, stack or secret', () => {
    expect(errors.length).toBeGreaterThan(40);
    for (const e of errors) {
      const body = JSON.parse(e.text) as Record<string, unknown>;
      expect(Object.keys(body), e.what).toEqual(['error']);
      expect(typeof body.error, e.what).toBe('string');
      expect(e.text, e.what).not.toMatch(/127\.0\.0\.1|localhost|\bat .*:\d+:\d+|Error:|ECONN/);
      for (const secret of [site.operatorToken, created.api_token, created.dns.tsig_secret, created.state.secret_key]) {
        expect(e.text, e.what).not.toContain(secret);
      }
    }
  });
});

// A create's answer carries secrets shown once: a browser's or a proxy's cache must not keep a copy.
describe('answers no cache keeps', () => {
  it('every /v1 and /codec answer says no-store and nosniff: a create with secrets, its replay, a read, a refusal, an unknown token', async () => {
    const key = { 'idempotency-key': 'no-store-1' };
    const answers = {
      create: await call('POST', '/v1/tenants', { body: { name: 'nostore' }, headers: key }),
      replay: await call('POST', '/v1/tenants', { body: { name: 'nostore' }, headers: key }),
      read: await call('GET', '/v1/tenants/acme'),
      refusal: await call('GET', '/v1/runs?limit=0'),
      unauthorized: await call('GET', '/v1/tenants', { token: 'nope' }),
      'no route': await call('GET', '/v1/nowhere'),
      codec: await call('POST', '/codec/decode', { body: { payloads: [] } }),
    };
    expect(answers.create.status, answers.create.text).toBe(201);
    expect(answers.replay.headers.get('idempotent-replayed')).toBe('true');
    for (const [what, r] of Object.entries(answers)) {
      expect([r.headers.get('cache-control'), r.headers.get('x-content-type-options')], `${what}: ${r.status}`).toEqual(['no-store', 'nosniff']);
    }
  });

  it('the service routes and the API reference may be cached as before', async () => {
    for (const path of ['/healthz', '/docs']) {
      const r = await site.call('GET', path);
      expect(r.headers.get('cache-control') ?? '', path).not.toContain('no-store');
    }
  });
});

describe('request log', () => {
  const lines = () => site.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

  it('every line is JSON, and every request line carries a request_id', () => {
    const parsed = lines();
    const requests = parsed.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThan(40);
    for (const l of requests) {
      expect(typeof l.request_id).toBe('string');
      expect(l.request_id).not.toBe('');
    }
  });

  it('the X-Request-Id answer header is the request_id logged for that request', async () => {
    const r = await call('GET', '/v1/tenants/acme');
    const id = r.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = lines().find((l) => l.msg === 'request' && l.request_id === id);
    expect(line).toMatchObject({ method: 'GET', path: '/v1/tenants/acme', status: 200 });
    const refused = await call('GET', '/v1/tenants', { token: null });
    const refusedId = refused.headers.get('x-request-id')!;
    expect(refusedId).not.toBe(id);
    expect(lines().find((l) => l.msg === 'request' && l.request_id === refusedId)).toMatchObject({ status: 401 });
  });

  it('a sane caller X-Request-Id is kept; an unsafe one is replaced', async () => {
    const kept = await call('GET', '/healthz', { headers: { 'x-request-id': 'trace-42.a_b' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a_b');
    expect(lines().some((l) => l.msg === 'request' && l.request_id === 'trace-42.a_b')).toBe(true);
    const unsafe = 'x"}, "level": 60, "y": "' + 'z'.repeat(10);
    const replaced = await call('GET', '/healthz', { headers: { 'x-request-id': unsafe } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('no secret of the create answer, nor the operator token, is ever logged', () => {
    const all = site.logs.join('\n');
    expect(all).toContain('"request"');
    for (const [what, secret] of Object.entries({
      api_token: created.api_token,
      tsig_secret: created.dns.tsig_secret,
      secret_key: created.state.secret_key,
      operator: site.operatorToken,
    })) {
      expect(secret, what).toBeTruthy();
      expect(all.includes(secret), `${what} found in the log`).toBe(false);
    }
  });
});
