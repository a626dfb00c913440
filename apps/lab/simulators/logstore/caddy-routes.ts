/**
 * Caddy's HTTP route semantics for the modules a token gateway needs:
 *   matchers  path, header (null value = header absent, [] = present, `*` wildcards), method, not
 *   handlers  headers (request set/add/delete), static_response, reverse_proxy, subroute
 * Routes are evaluated in order; a matching route runs its handlers; `terminal` stops the list; a
 * list that nothing answered continues with the parent chain; a server nothing answered sends an
 * empty 200. Unknown modules fail the config load, as Caddy's provisioning does.
 *
 * Followed: caddyserver/caddy modules/caddyhttp/matchers.go (MatchHeader/matchHeaders, MatchPath,
 * MatchNot), routes.go (RouteList, terminal), and the JSON docs of http.handlers.*.
 */
import type { Json, JsonObject } from '../../../../activities/log-store/routes.js';

export interface GatewayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: Uint8Array;
}

/** Resolves a reverse_proxy dial address to the backend behind it (undefined: nothing listens). */
export type Dialer = (dial: string) => ((req: GatewayRequest) => Promise<Response> | Response) | undefined;

const knownMatchers = new Set(['path', 'header', 'method', 'not']);
const knownHandlers = new Set(['headers', 'static_response', 'reverse_proxy', 'subroute']);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validateMatcherSet(set: Json, where: string): void {
  if (!isObject(set)) throw new Error(`${where}: matcher set must be an object`);
  for (const [name, v] of Object.entries(set)) {
    if (!knownMatchers.has(name)) throw new Error(`${where}: loading matcher modules: unknown module: http.matchers.${name}`);
    if (name === 'path' || name === 'method') {
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new Error(`${where}: ${name} matcher: json: cannot unmarshal into []string`);
    }
    if (name === 'header') {
      if (!isObject(v) || !Object.values(v).every((vals) => vals === null || (Array.isArray(vals) && vals.every((s) => typeof s === 'string')))) {
        throw new Error(`${where}: header matcher: json: cannot unmarshal into http.Header`);
      }
    }
    if (name === 'not') {
      if (!Array.isArray(v)) throw new Error(`${where}: not matcher: json: cannot unmarshal into []MatcherSet`);
      v.forEach((s, k) => validateMatcherSet(s, `${where}: not ${k}`));
    }
  }
}

export function validateRoutes(routes: Json | undefined, where: string): void {
  if (routes === undefined || routes === null) return;
  if (!Array.isArray(routes)) throw new Error(`${where}: json: cannot unmarshal into caddyhttp.RouteList`);
  routes.forEach((route, n) => {
    const at = `${where}: route ${n}`;
    if (!isObject(route)) throw new Error(`${at}: json: cannot unmarshal into caddyhttp.Route`);
    if (route.match !== undefined) {
      if (!Array.isArray(route.match)) throw new Error(`${at}: json: cannot unmarshal into caddyhttp.RawMatcherSets`);
      route.match.forEach((set, k) => validateMatcherSet(set, `${at}: matcher set ${k}`));
    }
    if (route.handle !== undefined) {
      if (!Array.isArray(route.handle)) throw new Error(`${at}: json: cannot unmarshal handle`);
      route.handle.forEach((h, p) => {
        const pos = `${at}: loading handler modules: position ${p}`;
        if (!isObject(h) || typeof h.handler !== 'string') throw new Error(`${pos}: module name 'handler' not specified`);
        if (!knownHandlers.has(h.handler)) throw new Error(`${pos}: loading module '${h.handler}': unknown module: http.handlers.${h.handler}`);
        if (h.handler === 'subroute') validateRoutes(h.routes, `${pos}: subroute`);
        if (h.handler === 'reverse_proxy') {
          const ups = h.upstreams;
          if (!Array.isArray(ups) || ups.length === 0 || !ups.every((u) => isObject(u) && typeof u.dial === 'string')) {
            throw new Error(`${pos}: reverse_proxy: no upstreams configured`);
          }
        }
      });
    }
  });
}

/** Validate a whole config the way loading it would: only the http app is modelled. */
export function validateConfig(config: Json): void {
  if (config === null) return;
  if (!isObject(config)) throw new Error('json: cannot unmarshal into caddy.Config');
  const apps = config.apps;
  if (apps === undefined || apps === null) return;
  if (!isObject(apps)) throw new Error('json: cannot unmarshal apps');
  for (const name of Object.keys(apps)) {
    if (name !== 'http') throw new Error(`loading app modules: module name '${name}': unknown module: ${name}`);
  }
  const servers = isObject(apps.http) ? apps.http.servers : undefined;
  if (servers === undefined || servers === null) return;
  if (!isObject(servers)) throw new Error('loading http app module: json: cannot unmarshal servers');
  for (const [srv, s] of Object.entries(servers)) {
    if (!isObject(s)) throw new Error(`loading http app module: server ${srv}: json: cannot unmarshal`);
    validateRoutes(s.routes, `loading http app module: provision http: server ${srv}: setting up route handlers`);
  }
}

/** Caddy's path matcher: case-insensitive, `*` as prefix/suffix/whole wildcard, else exact. */
function matchPath(patterns: string[], path: string): boolean {
  const p = path.toLowerCase();
  return patterns.some((raw) => {
    const pat = raw.toLowerCase();
    if (pat === '*') return true;
    if (pat.startsWith('*') && pat.endsWith('*') && pat.length > 1) return p.includes(pat.slice(1, -1));
    if (pat.endsWith('*')) return p.startsWith(pat.slice(0, -1));
    if (pat.startsWith('*')) return p.endsWith(pat.slice(1));
    return p === pat;
  });
}

function matchHeaderValue(allowed: string, actual: string): boolean {
  if (allowed === '*') return true;
  if (allowed.length > 1 && allowed.startsWith('*') && allowed.endsWith('*')) return actual.includes(allowed.slice(1, -1));
  if (allowed.startsWith('*')) return actual.endsWith(allowed.slice(1));
  if (allowed.endsWith('*')) return actual.startsWith(allowed.slice(0, -1));
  return actual === allowed;
}

/** matchHeaders: null = must be absent, [] = must be present, else any actual value matches any allowed one. */
function matchHeaders(against: JsonObject, headers: Headers): boolean {
  for (const [field, allowed] of Object.entries(against)) {
    const present = headers.has(field);
    if (allowed === null) {
      if (present) return false;
      continue;
    }
    if (!Array.isArray(allowed)) return false;
    if (allowed.length === 0) {
      if (!present) return false;
      continue;
    }
    const actual = headers.get(field);
    if (actual === null) return false;
    if (!allowed.some((a) => typeof a === 'string' && matchHeaderValue(a, actual))) return false;
  }
  return true;
}

function matchSet(set: JsonObject, req: GatewayRequest): boolean {
  for (const [name, v] of Object.entries(set)) {
    if (name === 'path' && !matchPath(v as string[], req.path)) return false;
    if (name === 'method' && !(v as string[]).map((m) => m.toUpperCase()).includes(req.method)) return false;
    if (name === 'header' && !matchHeaders(v as JsonObject, req.headers)) return false;
    if (name === 'not' && (v as JsonObject[]).some((s) => matchSet(s, req))) return false;
  }
  return true;
}

function routeMatches(route: JsonObject, req: GatewayRequest): boolean {
  const sets = route.match;
  if (!Array.isArray(sets) || sets.length === 0) return true;
  return sets.some((s) => isObject(s) && matchSet(s, req));
}

function applyHeaderOps(ops: Json | undefined, headers: Headers): void {
  if (!isObject(ops)) return;
  if (isObject(ops.add)) for (const [k, vs] of Object.entries(ops.add)) for (const v of (vs as string[]) ?? []) headers.append(k, v);
  if (isObject(ops.set)) for (const [k, vs] of Object.entries(ops.set)) headers.set(k, ((vs as string[]) ?? []).join(','));
  if (Array.isArray(ops.delete)) for (const k of ops.delete) if (typeof k === 'string') headers.delete(k);
}

function staticResponse(h: JsonObject): Response {
  const status = Number(h.status_code ?? 200);
  const headers = new Headers();
  if (isObject(h.headers)) for (const [k, vs] of Object.entries(h.headers)) for (const v of (vs as string[]) ?? []) headers.append(k, v);
  return new Response(typeof h.body === 'string' ? h.body : null, { status, headers });
}

async function runHandler(h: JsonObject, req: GatewayRequest, dial: Dialer): Promise<Response | undefined> {
  switch (h.handler) {
    case 'headers':
      applyHeaderOps(h.request, req.headers);
      return undefined;
    case 'static_response':
      return staticResponse(h);
    case 'reverse_proxy': {
      const ups = (h.upstreams as JsonObject[]) ?? [];
      const target = ups.map((u) => dial(String(u.dial))).find((t) => t !== undefined);
      // Caddy answers 502 when no upstream can be dialled.
      if (!target) return new Response(null, { status: 502 });
      return target(req);
    }
    case 'subroute':
      return evaluateRoutes((h.routes as Json[]) ?? [], req, dial);
    default:
      return new Response(null, { status: 500 });
  }
}

/** Returns the response of the first handler that answered, or undefined to continue the parent chain. */
export async function evaluateRoutes(routes: Json[], req: GatewayRequest, dial: Dialer): Promise<Response | undefined> {
  for (const route of routes) {
    if (!isObject(route) || !routeMatches(route, req)) continue;
    for (const h of (route.handle as Json[]) ?? []) {
      if (!isObject(h)) continue;
      const res = await runHandler(h, req, dial);
      if (res) return res;
    }
    if (route.terminal === true) return undefined;
  }
  return undefined;
}
