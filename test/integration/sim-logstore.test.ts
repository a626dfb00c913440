import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createLogStoreSimulator, type LogStoreState } from '../../apps/lab/simulators/logstore/index.js';

// Fidelity of the log-store simulator to Caddy's admin API and route semantics and to VictoriaLogs'
// ingestion/query API: the statuses, bodies and content types the real products answer with.

let srv: RunningServer;
let state: LogStoreState;
const routes = '/config/apps/http/servers/logs/routes';

async function admin(method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(srv.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text, json: () => JSON.parse(text) as unknown };
}

/** A route sending everything with this header straight to VictoriaLogs, tenant chosen by the caller. */
function openRoute(id: string, header: string, dial = state.upstream) {
  return { '@id': id, match: [{ header: { 'X-Test': [header] } }], handle: [{ handler: 'reverse_proxy', upstreams: [{ dial }] }], terminal: true };
}

beforeAll(async () => {
  const sim = createLogStoreSimulator();
  state = sim.state;
  srv = await serveApp(sim.app);
});

afterAll(async () => {
  await srv.close();
});

describe('Caddy admin API', () => {
  it('GET /config/ returns the running config as JSON', async () => {
    const r = await admin('GET', '/config/');
    expect(r.status).toBe(200);
    expect(r.type).toContain('application/json');
    expect((r.json() as { apps: unknown }).apps).toBeDefined();
  });

  it('GET of a missing key inside an object is null, not an error', async () => {
    const r = await admin('GET', '/config/apps/tls');
    expect(r.status).toBe(200);
    expect(r.json()).toBeNull();
  });

  it('an unknown @id is 404 with a JSON error body', async () => {
    const r = await admin('GET', '/id/no-such-route');
    expect(r.status).toBe(404);
    expect(r.json()).toEqual({ error: "unknown object ID 'no-such-route'" });
  });

  it('PUT on an array index inserts; the new route is addressable by @id', async () => {
    const before = (await admin('GET', routes)).json() as unknown[];
    expect((await admin('PUT', `${routes}/0`, openRoute('t-insert', 'a'))).status).toBe(200);
    const after = (await admin('GET', routes)).json() as unknown[];
    expect(after).toHaveLength(before.length + 1);
    expect((after[0] as { '@id': string })['@id']).toBe('t-insert');
    expect((await admin('GET', '/id/t-insert/terminal')).json()).toBe(true);
  });

  it('PATCH /id/<id> replaces the object in place; DELETE /id/<id> removes it', async () => {
    await admin('PUT', `${routes}/0`, openRoute('t-patch', 'b'));
    expect((await admin('PATCH', '/id/t-patch', openRoute('t-patch', 'c'))).status).toBe(200);
    expect((await admin('GET', '/id/t-patch/match/0/header/X-Test/0')).json()).toBe('c');
    expect((await admin('DELETE', '/id/t-patch')).status).toBe(200);
    expect((await admin('GET', '/id/t-patch')).status).toBe(404);
  });

  it('PUT of a key that exists is refused (500) and PATCH of a missing key too', async () => {
    const put = await admin('PUT', '/config/apps', {});
    expect(put.status).toBe(500);
    expect(put.json()).toEqual({ error: '[/config/apps] key already exists: apps' });
    const patch = await admin('PATCH', '/config/nothing', {});
    expect(patch.status).toBe(500);
    expect((patch.json() as { error: string }).error).toContain('key does not exist: nothing');
  });

  it('an index out of bounds is refused', async () => {
    const r = await admin('DELETE', `${routes}/999`);
    expect(r.status).toBe(500);
    expect((r.json() as { error: string }).error).toBe(`[${routes}/999] array index out of bounds: 999`);
  });

  it('a change that does not load is refused and leaves the running config untouched', async () => {
    const before = JSON.stringify(state.caddy.current);
    const r = await admin('PUT', `${routes}/0`, { '@id': 'bad', handle: [{ handler: 'no_such_handler' }] });
    expect(r.status).toBe(500);
    expect((r.json() as { error: string }).error).toMatch(/^loading new config: .*unknown module: http\.handlers\.no_such_handler/);
    expect(JSON.stringify(state.caddy.current)).toBe(before);
    expect((await admin('GET', '/id/bad')).status).toBe(404);
  });

  it('writes need a JSON content type (400 otherwise)', async () => {
    const r = await admin('POST', routes, JSON.stringify(openRoute('t-ct', 'd')), 'text/plain');
    expect(r.status).toBe(400);
    expect((r.json() as { error: string }).error).toContain("'application/json' required");
  });
});

describe('Caddy route semantics on the gateway', () => {
  it('the bootstrap catch-all answers 401 with a Bearer challenge', async () => {
    const res = await fetch(`${srv.url}/select/logsql/query?query=*`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="logs"');
  });

  it('a header matcher with a null value matches only when the header is absent', async () => {
    await admin('PUT', `${routes}/0`, {
      '@id': 't-null',
      match: [{ path: ['/probe'], header: { 'X-Absent': null } }],
      handle: [{ handler: 'static_response', status_code: 204 }],
      terminal: true,
    });
    expect((await fetch(`${srv.url}/probe`)).status).toBe(204);
    expect((await fetch(`${srv.url}/probe`, { headers: { 'X-Absent': 'x' } })).status).toBe(401);
  });

  it('reverse_proxy to an address nothing listens on answers 502', async () => {
    await admin('PUT', `${routes}/0`, openRoute('t-502', 'dead', 'nowhere:1'));
    expect((await fetch(`${srv.url}/select/logsql/query`, { headers: { 'X-Test': 'dead' } })).status).toBe(502);
  });

  it('a terminal route list that no handler answers gives an empty 200', async () => {
    await admin('PUT', `${routes}/0`, { '@id': 't-empty', match: [{ path: ['/empty'] }], handle: [{ handler: 'headers', request: { set: { A: ['1'] } } }], terminal: true });
    const res = await fetch(`${srv.url}/empty`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('VictoriaLogs behind the gateway', () => {
  beforeAll(async () => {
    await admin('PUT', `${routes}/0`, openRoute('t-open', 'open'));
  });

  const vl = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(srv.url + path, { ...init, headers: { 'X-Test': 'open', ...init.headers } });

  it('ingests JSON lines per AccountID/ProjectID and answers 200 with an empty JSON response', async () => {
    const body = ['{"_msg":"boot ok","host":"a","_time":"2026-01-01T00:00:00Z"}', '', '{"_msg":"second","host":"b","_time":"2026-01-01T00:00:01Z"}'].join('\n');
    const res = await vl('/insert/jsonline', { method: 'POST', body, headers: { AccountID: '5', ProjectID: '1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
    expect(state.logs.get('5:1')).toHaveLength(2);
  });

  it('answers a LogsQL query with JSON lines of the tenant only', async () => {
    const res = await vl('/select/logsql/query?query=*', { headers: { AccountID: '5', ProjectID: '1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/stream+json; charset=utf-8');
    const rows = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(rows.map((r) => r._msg)).toEqual(['boot ok', 'second']);
    expect(rows[0]).toMatchObject({ _time: '2026-01-01T00:00:00.000Z', _stream: '{}', host: 'a' });
    const other = await vl('/select/logsql/query?query=*', { headers: { AccountID: '5', ProjectID: '0' } });
    expect(await other.text()).toBe('');
  });

  it('filters by word and field, and limit returns the newest first', async () => {
    const h = { AccountID: '5', ProjectID: '1' };
    expect((await (await vl('/select/logsql/query?query=boot', { headers: h })).text()).trim().split('\n')).toHaveLength(1);
    expect(await (await vl('/select/logsql/query?query=host:b', { headers: h })).text()).toContain('"second"');
    const limited = await (await vl('/select/logsql/query', { method: 'POST', headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=*&limit=1' })).text();
    expect(JSON.parse(limited.trim())._msg).toBe('second');
  });

  it('takes the message field from _msg_field', async () => {
    await vl('/insert/jsonline?_msg_field=log', { method: 'POST', body: '{"log":"from log field"}', headers: { AccountID: '6' } });
    expect(state.logs.get('6:0')?.[0]?._msg).toBe('from log field');
  });

  it('refuses a non-numeric AccountID with a 400 text error', async () => {
    const res = await vl('/insert/jsonline', { method: 'POST', body: '{"_msg":"x"}', headers: { AccountID: 'acme' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('cannot parse AccountID from "acme"');
  });

  it('refuses a request whose every line is invalid, but not one with some valid lines', async () => {
    const bad = await vl('/insert/jsonline', { method: 'POST', body: 'not json\n', headers: { AccountID: '7' } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('cannot process jsonline request');
    const mixed = await vl('/insert/jsonline', { method: 'POST', body: 'not json\n{"_msg":"ok"}', headers: { AccountID: '7' } });
    expect(mixed.status).toBe(200);
    expect(state.logs.get('7:0')).toHaveLength(1);
  });

  it('answers 405 to a GET on the insert endpoint, 400 to a bad query and to an unknown path', async () => {
    expect((await vl('/insert/jsonline')).status).toBe(405);
    const q = await vl('/select/logsql/query?query=' + encodeURIComponent('a | stats count()'));
    expect(q.status).toBe(400);
    expect(await q.text()).toContain('cannot parse query');
    const missing = await vl('/select/logsql/query');
    expect(missing.status).toBe(400);
    const unknown = await vl('/select/nothing');
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('unsupported path requested: "/select/nothing"');
  });
});
