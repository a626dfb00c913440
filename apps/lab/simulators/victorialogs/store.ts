/**
 * VictoriaLogs (single node, multitenant) behind the gateway: the subset tenants use. The lab's
 * real Caddy proxies to it (index.ts serves it over HTTP).
 *   POST /insert/jsonline            one JSON object per line; `_msg_field`, `_time_field`,
 *                                    `_stream_fields` as query args or VL-* headers; 200 empty JSON
 *   GET|POST /select/logsql/query    `query` (LogsQL subset: `*`, words, "phrases", field:value),
 *                                    `limit`; answers JSON lines (application/stream+json)
 * The tenant is the `AccountID` / `ProjectID` headers (uint32, default 0:0); there is no auth here,
 * the gateway in front provides it. Errors are text/plain 400 in httpserver.Errorf's shape.
 *
 * Followed: VictoriaMetrics/VictoriaLogs app/vlinsert/jsonline/jsonline.go, app/vlselect/logsql
 * (ProcessQueryRequest), docs/victorialogs/data-ingestion (HTTP parameters), querying/README.md,
 * and the multitenancy section of docs/victorialogs/README.md.
 */
/** A request as it reached VictoriaLogs (after the gateway). */
export interface GatewayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: Uint8Array;
}

export interface LogRow {
  _time: string;
  _msg: string;
  _stream: string;
  fields: Record<string, string>;
}

/** Rows per tenant key `<account>:<project>`: inspectable by tests. */
export type LogTenants = Map<string, LogRow[]>;

function tenantKey(account: number, project: number): string {
  return `${account}:${project}`;
}

function errorText(req: GatewayRequest, msg: string, status = 400): Response {
  const uri = req.path + (req.query.size ? `?${req.query.toString()}` : '');
  return new Response(`remoteAddr: "127.0.0.1"; requestURI: ${uri}; ${msg}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

function parseTenantPart(name: string, raw: string | null): number | string {
  if (raw === null || raw === '') return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > 0xffffffff) return `cannot parse ${name} from "${raw}": strconv.ParseUint: parsing "${raw}": invalid syntax`;
  return Number(raw);
}

function tenantOf(req: GatewayRequest): { account: number; project: number } | string {
  const account = parseTenantPart('AccountID', req.headers.get('AccountID'));
  if (typeof account === 'string') return account;
  const project = parseTenantPart('ProjectID', req.headers.get('ProjectID'));
  if (typeof project === 'string') return project;
  return { account, project };
}

function param(req: GatewayRequest, form: URLSearchParams, name: string, header?: string): string | null {
  return req.query.get(name) ?? form.get(name) ?? (header ? req.headers.get(header) : null);
}

function formOf(req: GatewayRequest): URLSearchParams {
  const ct = req.headers.get('content-type') ?? '';
  return ct.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(new TextDecoder().decode(req.body)) : new URLSearchParams();
}

function flatten(obj: Record<string, unknown>, prefix: string, out: Record<string, string>): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, out);
    else out[key] = typeof v === 'string' ? v : JSON.stringify(v);
  }
}

function parseTime(raw: string | undefined, now: Date): Date | undefined {
  if (raw === undefined || raw === '' || raw === '0') return now;
  if (/^\d+$/.test(raw)) {
    const n = Number(raw);
    const ms = n < 1e11 ? n * 1000 : n < 1e14 ? n : n < 1e17 ? n / 1000 : n / 1e6;
    return new Date(ms);
  }
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function insertJsonLine(req: GatewayRequest, store: LogTenants, now: () => Date): Response {
  if (req.method !== 'POST') return new Response(null, { status: 405, headers: { 'Content-Type': 'application/json' } });
  const tenant = tenantOf(req);
  if (typeof tenant === 'string') return errorText(req, tenant);
  const form = new URLSearchParams();
  const msgFields = (param(req, form, '_msg_field', 'VL-Msg-Field') ?? '_msg').split(',');
  const timeField = param(req, form, '_time_field', 'VL-Time-Field') ?? '_time';
  const streamFields = (param(req, form, '_stream_fields', 'VL-Stream-Fields') ?? '').split(',').filter(Boolean);

  const lines = new TextDecoder()
    .decode(req.body)
    .split('\n')
    .filter((l) => l.trim() !== '');
  const rows: LogRow[] = [];
  let lastError = '';
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      lastError = `${(e as Error).message}; line contents: ${JSON.stringify(line)}`;
      continue;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      lastError = `missing json object; line contents: ${JSON.stringify(line)}`;
      continue;
    }
    const fields: Record<string, string> = {};
    flatten(parsed as Record<string, unknown>, '', fields);
    const time = parseTime(fields[timeField], now());
    if (!time) {
      lastError = `cannot parse timestamp ${JSON.stringify(fields[timeField])}; line contents: ${JSON.stringify(line)}`;
      continue;
    }
    delete fields[timeField];
    let msg = '';
    for (const f of msgFields) {
      if (fields[f] !== undefined) {
        msg = fields[f];
        delete fields[f];
        break;
      }
    }
    const stream = `{${streamFields
      .filter((f) => fields[f] !== undefined)
      .map((f) => `${f}=${JSON.stringify(fields[f])}`)
      .join(',')}}`;
    rows.push({ _time: time.toISOString(), _msg: msg, _stream: stream, fields });
  }
  // Like jsonline.go: a request is refused only when no line could be ingested.
  if (lines.length > 0 && rows.length === 0) return errorText(req, `cannot process jsonline request; error: ${lastError}`);
  const key = tenantKey(tenant.account, tenant.project);
  store.set(key, [...(store.get(key) ?? []), ...rows]);
  return new Response(null, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

type Filter = (row: LogRow) => boolean;

function unquote(s: string): string {
  return s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1) : s;
}

/** The LogsQL subset: whitespace-separated filters joined by AND. */
export function parseLogsQL(q: string): Filter | string {
  const tokens = q.match(/"[^"]*"|\S+/g) ?? [];
  if (tokens.length === 0) return 'missing query';
  const filters: Filter[] = [];
  for (const t of tokens) {
    if (/[|()!]/.test(t) && !t.startsWith('"')) return `unexpected token ${JSON.stringify(t)}`;
    if (t === '*') continue;
    const colon = t.startsWith('"') ? -1 : t.indexOf(':');
    if (colon > 0) {
      const field = t.slice(0, colon);
      const value = unquote(t.slice(colon + 1));
      filters.push((r) => (field === '_msg' ? r._msg : field === '_stream' ? r._stream : r.fields[field]) === value);
      continue;
    }
    const phrase = unquote(t).toLowerCase();
    filters.push((r) => r._msg.toLowerCase().includes(phrase));
  }
  return (r) => filters.every((f) => f(r));
}

function rowJson(r: LogRow): string {
  return JSON.stringify({ _msg: r._msg, _stream: r._stream, _time: r._time, ...r.fields });
}

function selectQuery(req: GatewayRequest, store: LogTenants): Response {
  const tenant = tenantOf(req);
  if (typeof tenant === 'string') return errorText(req, tenant);
  const form = formOf(req);
  const limitRaw = param(req, form, 'limit');
  const limit = limitRaw === null || limitRaw === '' ? 0 : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 0) return errorText(req, `cannot parse "limit" arg: ${JSON.stringify(limitRaw)}`);
  const q = param(req, form, 'query') ?? '';
  const filter = parseLogsQL(q);
  if (typeof filter === 'string') return errorText(req, `cannot parse query [${q}]: ${filter}`);
  let rows = (store.get(tenantKey(tenant.account, tenant.project)) ?? []).filter(filter);
  rows = [...rows].sort((a, b) => a._time.localeCompare(b._time));
  // With a limit the newest rows come first, as `| sort by (_time) desc | limit N` does.
  if (limit > 0) rows = rows.reverse().slice(0, limit);
  const body = rows.map((r) => rowJson(r) + '\n').join('');
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/stream+json; charset=utf-8' } });
}

/** The VictoriaLogs HTTP handler the gateway proxies to. */
export function victoriaLogs(store: LogTenants, now: () => Date = () => new Date()) {
  return function handleVictoriaLogs(req: GatewayRequest): Response {
    if (req.path === '/insert/jsonline') return insertJsonLine(req, store, now);
    if (req.path === '/select/logsql/query') {
      if (req.method !== 'GET' && req.method !== 'POST') return new Response(null, { status: 405 });
      return selectQuery(req, store);
    }
    return errorText(req, `unsupported path requested: ${JSON.stringify(req.path)}`);
  };
}
