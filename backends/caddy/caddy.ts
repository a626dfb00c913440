/**
 * Log-store adapter: per-tenant token entries on the Caddy gateway in front of VictoriaLogs,
 * written through Caddy's admin API. Each tenant owns two routes, addressed by `@id`; they must sit
 * before the gateway's catch-all route (the first route without a matcher), which refuses the rest.
 *
 * The service generates the tokens; this adapter only places them. Route JSON carries the tokens,
 * so nothing of it is ever put into an error detail.
 */
import type { BackendCalls } from '../http/calls.js';
import { BackendError, type ChangeResult, type ObjectOutcome } from '../../core/backend-outcome.js';
import { differs, ensure, once, plan, planned, type Observation, type ObjectKind } from '../reconcile/reconcile.js';
import { BackendHttp } from '../http/client.js';
import { ingestRoute, jsonEqual, readRoute, routeIds, selectHeaderName, type Json, heldTokens } from './routes.js';

export { selectHeaderName } from './routes.js';

export interface LogStoreAdapterOptions {
  /** Caddy's admin API, e.g. http://gateway:2019. */
  adminUrl: string;
  /** The Caddy server holding the log routes (apps.http.servers.<server>). */
  server?: string;
  /** VictoriaLogs as the gateway dials it, `host:port`. */
  upstream: string;
  /** The URL tenants ship to (/insert/...) and read from (/select/...). */
  endpoint: string;
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
}

export interface LogStoreSpec {
  tenant: string;
  accountId: number;
  ingestToken: string;
  readToken: string;
}

export type RouteState = 'absent' | 'matches' | 'drifted';

export interface LogStoreObservation {
  ingest: RouteState;
  read: RouteState;
}

export interface LogStoreAdapter {
  /** Where tenants ship and read logs. */
  readonly endpoint: string;
  /** The header a reader sets to `<account_id>-<project>`. */
  readonly selectHeader: string;
  observe(spec: LogStoreSpec): Promise<LogStoreObservation>;
  /** The tokens the gateway admits for a tenant, when it holds both of its routes. */
  heldTokens(tenant: string): Promise<{ ingestToken: string; readToken: string } | undefined>;
  ensure(spec: LogStoreSpec): Promise<ObjectOutcome[]>;
  /**
   * Both routes of each of these tenants made as `ensure` makes them, from one read of the route
   * list and at most one conditional write of it (group commit: Caddy reloads its whole config on
   * every change, and a burst of creates waited for one reload after another, two per tenant).
   * One result per tenant, in order: what `ensure` reports of its routes.
   */
  write(specs: LogStoreSpec[]): Promise<Array<ChangeResult<ObjectOutcome[]>>>;
  /** What ensure would report, from one read of the routes. */
  plan(spec: LogStoreSpec): Promise<ObjectOutcome[]>;
  /** Removes both routes of the tenant; absent is fine. */
  remove(spec: Pick<LogStoreSpec, 'tenant'>): Promise<void>;
  /** Whether the gateway holds the tenant's ingest route: one small read, by its @id. */
  holdsRoute(tenant: string): Promise<boolean>;
  /** Of these tenants, those lacking a route of theirs (a reload replaced the config), from one read. */
  lackingRoutes(tenants: string[]): Promise<string[]>;
  /**
   * Puts back both routes of each of these tenants that lacks one, in one write ahead of the rest
   * (a reload dropped them all: one write, one config reload, not one per route). Answers the
   * tenants restored.
   */
  restoreRoutes(specs: LogStoreSpec[]): Promise<string[]>;
}

interface Placed {
  /** Indexes of routes carrying this @id (more than one only after a botched edit). */
  at: number[];
  route: Json | undefined;
}

function place(routes: Json[], id: string): Placed {
  const at: number[] = [];
  routes.forEach((r, i) => {
    if (r && typeof r === 'object' && !Array.isArray(r) && r['@id'] === id) at.push(i);
  });
  return { at, route: at.length ? routes[at[0] as number] : undefined };
}

/** The catch-all: the first route without matchers. Routes after it never see a request. */
function catchAllIndex(routes: Json[]): number {
  return routes.findIndex((r) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) return false;
    const m = r.match;
    return m === undefined || m === null || (Array.isArray(m) && m.length === 0);
  });
}

/** What differs of a route found: `route` (its matchers or handler), `position` (behind the catch-all, or more than one). */
function routeDrift(p: Placed, desired: Json, catchAll: number): string[] {
  const misplaced = p.at.length > 1 || (catchAll >= 0 && (p.at[0] as number) > catchAll);
  return [...(jsonEqual(p.route, desired) ? [] : ['route']), ...(misplaced ? ['position'] : [])];
}

function stateOf(p: Placed, desired: Json, catchAll: number): RouteState {
  if (p.at.length === 0) return 'absent';
  const reachable = catchAll < 0 || (p.at[0] as number) < catchAll;
  return p.at.length === 1 && reachable && jsonEqual(p.route, desired) ? 'matches' : 'drifted';
}

/** What the adapter's functions share: the admin API client and where the log routes live. */
interface Caddy {
  opts: LogStoreAdapterOptions;
  http: BackendHttp;
  server: string;
  routesPath: string;
}

export function createLogStoreAdapter(opts: LogStoreAdapterOptions): LogStoreAdapter {
  const server = opts.server ?? 'logs';
  const ctx: Caddy = {
    opts,
    http: new BackendHttp('caddy', opts.adminUrl, {}, opts.timeoutMs, { ca: opts.ca, calls: opts.calls }),
    server,
    routesPath: `/config/apps/http/servers/${encodeURIComponent(server)}/routes`,
  };
  return {
    endpoint: opts.endpoint,
    selectHeader: selectHeaderName,
    observe: (spec) => observe(ctx, spec),
    heldTokens: async (tenant) => heldTokens(await readRoutes(ctx), tenant),
    plan: (spec) => planRoutes(ctx, spec),
    ensure: (spec) => ensureRoutes(ctx, spec),
    write: (specs) => writeRoutes(ctx, specs),
    remove: (spec) => remove(ctx, spec),
    holdsRoute: async (tenant) => (await ctx.http.call({ path: `/id/${encodeURIComponent(routeIds(tenant).ingest)}`, accept: [404] })).status !== 404,
    lackingRoutes: (tenants) => lackingRoutes(ctx, tenants),
    restoreRoutes: (specs) => restoreRoutes(ctx, specs),
  };
}

/** The server's routes, and Caddy's ETag of them (a trailer of the answer) for a conditional write. */
async function readTaggedRoutes(ctx: Caddy): Promise<{ routes: Json[]; etag?: string }> {
  const res = await ctx.http.call({ path: ctx.routesPath });
  const routes = res.json<Json>();
  if (!Array.isArray(routes)) {
    throw new BackendError('caddy', `server ${ctx.server} has no routes array; the gateway's bootstrap config is missing`, false);
  }
  const etag = res.headers.etag;
  return { routes, etag: typeof etag === 'string' ? etag : undefined };
}

async function readRoutes(ctx: Caddy): Promise<Json[]> {
  return (await readTaggedRoutes(ctx)).routes;
}

function desired(ctx: Caddy, spec: LogStoreSpec) {
  const inputs = { ...spec, upstream: ctx.opts.upstream };
  return { ingest: ingestRoute(inputs), read: readRoute(inputs) };
}

/**
 * Delete every route carrying this @id. Caddy resolves the @id to an index before it takes its
 * write lock, so a concurrent insert would make this delete another route: the step keeps other
 * writers out (activities/log-store/step.ts, oneGatewayWrite).
 */
async function deleteAll(ctx: Caddy, id: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const res = await ctx.http.call({ method: 'DELETE', path: `/id/${encodeURIComponent(id)}`, accept: [404] });
    if (res.status === 404) return;
  }
}

/** Put a route at the front: ahead of the catch-all whatever else the gateway holds. */
async function insertFirst(ctx: Caddy, route: Json): Promise<void> {
  await ctx.http.call({ method: 'PUT', path: `${ctx.routesPath}/0`, json: route });
}

/** One of a tenant's routes, by its @id. */
interface RouteWant {
  id: string;
  route: Json;
  label: string;
}

/** A route found: how many routes carry its @id (more than one only after a botched edit). */
interface RouteObservation extends Observation {
  copies: number;
}

/**
 * A tenant's route, observed in the route list `read` answers: each ensure reads it afresh (indexes
 * move with every insert), a plan once for both routes.
 */
function routeKind(ctx: Caddy, read: () => Promise<Json[]>): ObjectKind<RouteWant, RouteObservation> {
  return {
    object: (w) => w.label,
    async observe(w) {
      const routes = await read();
      const p = place(routes, w.id);
      const catchAll = catchAllIndex(routes);
      const st = stateOf(p, w.route, catchAll);
      return { exists: st !== 'absent', drift: st === 'drifted' ? routeDrift(p, w.route, catchAll) : [], copies: p.at.length };
    },
    async apply(w, seen) {
      if (seen.exists && !seen.drift.includes('position')) {
        // In place: the route keeps its position and its @id.
        await ctx.http.call({ method: 'PATCH', path: `/id/${encodeURIComponent(w.id)}`, json: w.route });
        return;
      }
      if (seen.exists) await deleteAll(ctx, w.id, seen.copies);
      await insertFirst(ctx, w.route);
    },
  };
}

/** Both routes of the tenant, ingest then read. */
function routesOf(ctx: Caddy, spec: LogStoreSpec): RouteWant[] {
  const ids = routeIds(spec.tenant);
  const want = desired(ctx, spec);
  return [
    { id: ids.ingest, route: want.ingest, label: `log ingest token ${spec.tenant}` },
    { id: ids.read, route: want.read, label: `log read token ${spec.tenant}` },
  ];
}

async function observe(ctx: Caddy, spec: LogStoreSpec): Promise<LogStoreObservation> {
  const routes = await readRoutes(ctx);
  const ids = routeIds(spec.tenant);
  const want = desired(ctx, spec);
  const catchAll = catchAllIndex(routes);
  return {
    ingest: stateOf(place(routes, ids.ingest), want.ingest, catchAll),
    read: stateOf(place(routes, ids.read), want.read, catchAll),
  };
}

async function planRoutes(ctx: Caddy, spec: LogStoreSpec): Promise<ObjectOutcome[]> {
  const kind = routeKind(
    ctx,
    once(() => readRoutes(ctx)),
  );
  const outcomes: ObjectOutcome[] = [];
  for (const w of routesOf(ctx, spec)) outcomes.push(await plan(kind, w));
  return outcomes;
}

async function ensureRoutes(ctx: Caddy, spec: LogStoreSpec): Promise<ObjectOutcome[]> {
  // One route at a time: each observe re-reads the list, since indexes move with every insert.
  const kind = routeKind(ctx, () => readRoutes(ctx));
  const outcomes: ObjectOutcome[] = [];
  for (const w of routesOf(ctx, spec)) outcomes.push(await ensure(kind, w));
  return outcomes;
}

/**
 * The routes of several tenants on one read: each route observed as `ensure` observes it (so the
 * outcomes are the reconciler's words), and those that differ put in front of the list, their
 * other copies taken out, in one write of the whole list on the condition that nobody changed it
 * since the read (Caddy's ETag as If-Match; 412 otherwise, retried as a failed write).
 */
async function writeRoutes(ctx: Caddy, specs: LogStoreSpec[]): Promise<Array<ChangeResult<ObjectOutcome[]>>> {
  const { routes, etag } = await readTaggedRoutes(ctx);
  const kind = routeKind(ctx, async () => routes);
  const seen = await Promise.all(specs.map((spec) => Promise.all(routesOf(ctx, spec).map(async (w) => ({ w, ...(await planned(kind, w)) })))));
  // A tenant twice in one batch (a retry beside its cancelled attempt) has its last routes written.
  const front = new Map<string, Json>();
  for (const { w, held } of seen.flat()) if (differs(held)) front.set(w.id, w.route);
  if (front.size > 0) {
    const put = await ctx.http.call({
      method: 'PATCH',
      path: ctx.routesPath,
      json: [...front.values(), ...routes.filter((r) => !front.has(idOf(r) ?? ''))],
      headers: etag ? { 'if-match': etag } : {},
      accept: [412],
    });
    if (put.status === 412) throw new BackendError('caddy', `the routes of server ${ctx.server} changed while they were being written`, true, 412);
  }
  return seen.map((routesSeen) => ({ ok: true as const, value: routesSeen.map((r) => r.outcome) }));
}

async function remove(ctx: Caddy, spec: Pick<LogStoreSpec, 'tenant'>): Promise<void> {
  const routes = await readRoutes(ctx);
  const ids = routeIds(spec.tenant);
  await deleteAll(ctx, ids.ingest, place(routes, ids.ingest).at.length);
  await deleteAll(ctx, ids.read, place(routes, ids.read).at.length);
}

const idOf = (r: Json): string | undefined => (r && typeof r === 'object' && !Array.isArray(r) && typeof r['@id'] === 'string' ? r['@id'] : undefined);

function lacking(routes: Json[], tenants: string[]): string[] {
  const held = new Set(routes.map(idOf));
  return tenants.filter((t) => {
    const ids = routeIds(t);
    return !held.has(ids.ingest) || !held.has(ids.read);
  });
}

async function lackingRoutes(ctx: Caddy, tenants: string[]): Promise<string[]> {
  return lacking(await readRoutes(ctx), tenants);
}

/**
 * The whole route list written back with the lacking tenants' routes in front (each tenant's other
 * route, if one was left, taken out first), on the condition that nobody changed the list since it
 * was read: Caddy's ETag (a trailer of the GET) as If-Match, refused with 412 otherwise.
 */
async function restoreRoutes(ctx: Caddy, specs: LogStoreSpec[]): Promise<string[]> {
  const { routes, etag } = await readTaggedRoutes(ctx);
  const names = new Set(
    lacking(
      routes,
      specs.map((s) => s.tenant),
    ),
  );
  const restore = specs.filter((s) => names.has(s.tenant));
  if (restore.length === 0) return [];
  const replaced = new Set(restore.flatMap((s) => Object.values(routeIds(s.tenant))));
  const front = restore.flatMap((s) => {
    const want = desired(ctx, s);
    return [want.ingest, want.read];
  });
  const put = await ctx.http.call({
    method: 'PATCH',
    path: ctx.routesPath,
    json: [...front, ...routes.filter((r) => !replaced.has(idOf(r) ?? ''))],
    headers: etag ? { 'if-match': etag } : {},
    accept: [412],
  });
  if (put.status === 412) throw new BackendError('caddy', `the routes of server ${ctx.server} changed while they were being restored`, true, 412);
  return restore.map((s) => s.tenant);
}
