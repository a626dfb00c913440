import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createVictoriaLogsStandIn, type LogTenants } from '../../apps/lab/simulators/victorialogs/index.js';

// Fidelity of the VictoriaLogs stand-in (the upstream behind the lab's real Caddy gateway) to
// VictoriaLogs' ingestion and query API: statuses, bodies and content types the real product
// answers with (app/vlinsert/jsonline/jsonline.go, app/vlselect/logsql, docs/victorialogs).

let srv: RunningServer;
let logs: LogTenants;

beforeAll(async () => {
  const standIn = createVictoriaLogsStandIn();
  logs = standIn.logs;
  srv = await serveApp(standIn.app);
});

afterAll(async () => {
  await srv.close();
});

describe('VictoriaLogs stand-in', () => {
  const vl = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => fetch(srv.url + path, { ...init, headers: { ...init.headers } });

  it('ingests JSON lines per AccountID/ProjectID and answers 200 with an empty JSON response', async () => {
    const body = ['{"_msg":"boot ok","host":"a","_time":"2026-01-01T00:00:00Z"}', '', '{"_msg":"second","host":"b","_time":"2026-01-01T00:00:01Z"}'].join('\n');
    const res = await vl('/insert/jsonline', { method: 'POST', body, headers: { AccountID: '5', ProjectID: '1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
    expect(logs.get('5:1')).toHaveLength(2);
  });

  it('answers a LogsQL query with JSON lines of the tenant only', async () => {
    const res = await vl('/select/logsql/query?query=*', { headers: { AccountID: '5', ProjectID: '1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/stream+json; charset=utf-8');
    const rows = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(rows.map((r) => r._msg)).toEqual(['boot ok', 'second']);
    expect(rows[0]).toMatchObject({ _time: '2026-01-01T00:00:00.000Z', _stream: '{}', host: 'a' });
    const other = await vl('/select/logsql/query?query=*', { headers: { AccountID: '5', ProjectID: '0' } });
    expect(await other.text()).toBe('');
  });

  it('filters by word and field, and limit returns the newest first', async () => {
    const h = { AccountID: '5', ProjectID: '1' };
    expect((await (await vl('/select/logsql/query?query=boot', { headers: h })).text()).trim().split('\n')).toHaveLength(1);
    expect(await (await vl('/select/logsql/query?query=host:b', { headers: h })).text()).toContain('"second"');
    const limited = await (
      await vl('/select/logsql/query', { method: 'POST', headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=*&limit=1' })
    ).text();
    expect(JSON.parse(limited.trim())._msg).toBe('second');
  });

  it('takes the message field from _msg_field', async () => {
    await vl('/insert/jsonline?_msg_field=log', { method: 'POST', body: '{"log":"from log field"}', headers: { AccountID: '6' } });
    expect(logs.get('6:0')?.[0]?._msg).toBe('from log field');
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
    expect(logs.get('7:0')).toHaveLength(1);
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
