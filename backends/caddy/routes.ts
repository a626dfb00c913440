import { LOG_SELECT_HEADER, projectHeaderValue } from '../../core/tenant-view.js';

/**
 * The gateway entries of one tenant, as Caddy routes (JSON config). Pure: the adapter writes what
 * these return, and the tests read them as tables. Tokens appear here because the gateway matches
 * them; these objects go to the gateway's admin API only, never to a log line.
 *
 * Why the shapes: Caddy's `header` matcher with a null value matches "header absent", which is what
 * lets a read without the select header default to project 0 while a header naming anything else
 * (another account, an unknown project) falls through to an explicit 403.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The request header a reader uses to choose a project: value `<account_id>-<project>`. */
export const selectHeaderName = LOG_SELECT_HEADER;

/** What the tenant's own workloads ship: ingestion is pinned to it. */
export const workloadProject = 0;

/** 0 workloads, 1 substrate about the tenant, 2 devices over MQTT. */
export const readableProjects = [0, 1, 2] as const;

export interface LogRouteInputs {
  tenant: string;
  accountId: number;
  ingestToken: string;
  readToken: string;
  /** The VictoriaLogs address as the gateway dials it (`host:port`). */
  upstream: string;
}

export function routeIds(tenant: string): { ingest: string; read: string } {
  return { ingest: `svc-logs-${tenant}-ingest`, read: `svc-logs-${tenant}-read` };
}

function bearer(token: string): string {
  return `Bearer ${token}`;
}

/** Pin the VictoriaLogs tenant whatever the client sent, and keep the gateway's credential away from the store. */
function pinTenant(accountId: number, project: number): JsonObject {
  return {
    handler: 'headers',
    request: {
      set: { AccountID: [String(accountId)], ProjectID: [String(project)] },
      delete: ['Authorization', selectHeaderName],
    },
  };
}

function proxy(upstream: string): JsonObject {
  return { handler: 'reverse_proxy', upstreams: [{ dial: upstream }] };
}

/** Write-only, one account, project 0: anything else the token tries falls to the gateway's 401. */
export function ingestRoute(i: LogRouteInputs): JsonObject {
  return {
    '@id': routeIds(i.tenant).ingest,
    match: [{ path: ['/insert/*'], header: { Authorization: [bearer(i.ingestToken)] } }],
    handle: [pinTenant(i.accountId, workloadProject), proxy(i.upstream)],
    terminal: true,
  };
}

/** Read-only, one account, projects chosen by the select header; no header means project 0. */
export function readRoute(i: LogRouteInputs): JsonObject {
  const perProject: JsonObject[] = readableProjects.map((project) => {
    const named: JsonObject = { header: { [selectHeaderName]: [projectHeaderValue(i.accountId, project)] } };
    const match: Json[] = project === workloadProject ? [{ header: { [selectHeaderName]: null } }, named] : [named];
    return { match, handle: [pinTenant(i.accountId, project), proxy(i.upstream)], terminal: true };
  });
  const refuse: JsonObject = {
    handle: [
      {
        handler: 'static_response',
        status_code: 403,
        headers: { 'Content-Type': ['text/plain; charset=utf-8'] },
        body: `${selectHeaderName} names no project this token may read\n`,
      },
    ],
  };
  return {
    '@id': routeIds(i.tenant).read,
    match: [{ path: ['/select/*'], header: { Authorization: [bearer(i.readToken)] } }],
    handle: [{ handler: 'subroute', routes: [...perProject, refuse] }],
    terminal: true,
  };
}

/** Structural equality of JSON values, independent of key order (the admin API re-encodes objects). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, k) => jsonEqual(v, b[k]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (!jsonEqual(ka, kb)) return false;
    return ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/**
 * The tokens the gateway's routes of a tenant admit, read back from its config: what a restore
 * adopts, so workloads shipping logs with them keep working after the registry was lost.
 */
export function heldTokens(routes: readonly Json[], tenant: string): { ingestToken: string; readToken: string } | undefined {
  const ids = routeIds(tenant);
  const tokenOf = (id: string): string | undefined => {
    const route = routes.find((r): r is JsonObject => !!r && typeof r === 'object' && !Array.isArray(r) && r['@id'] === id);
    const match = Array.isArray(route?.match) ? (route.match[0] as JsonObject | undefined) : undefined;
    const header = match?.header as JsonObject | undefined;
    const value = Array.isArray(header?.Authorization) ? header.Authorization[0] : undefined;
    return typeof value === 'string' && value.startsWith('Bearer ') ? value.slice('Bearer '.length) : undefined;
  };
  const ingestToken = tokenOf(ids.ingest);
  const readToken = tokenOf(ids.read);
  return ingestToken && readToken ? { ingestToken, readToken } : undefined;
}
