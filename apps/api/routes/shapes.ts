import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppDeps, AppEnv } from '../context.js';
import { found } from '../errors.js';
import { errorResponses, TenantParam } from '../schemas/common.js';
import { idempotent } from '../idempotency/contract.js';
import { answer, bearer, responses, type Registration } from './kit.js';

/**
 * The routes every tenant resource has (list, get, delete, and a create or put), declared by what
 * differs: the resource once (`resource`: its tag, its object's path and parameters, and the checks
 * each of its routes starts with), then each route by its words, its shapes and the read, removal
 * or write itself, handed the checked access. Routes of another shape are written out with
 * `createRoute` and the pieces of kit.ts.
 */
type Ctx = Context<AppEnv>;
type Params = z.ZodObject<{ t: z.ZodString } & z.ZodRawShape>;
type Schema = z.ZodType;

/** What a route's read or write is handed once the resource's checks passed: the operations, and who calls. */
export interface Access<O> {
  ops: O;
  actor: string;
}

interface Resource<O, P extends Params> {
  tag: string;
  /** One object's path; its collection's (list, create) is this without the last segment. */
  item: string;
  params: P;
  /** The first checks of each of its routes (tenant-access.ts). */
  access(c: Ctx, deps: AppDeps, tenant: string): Promise<Access<O>>;
}

/** A route's own words. */
interface Words {
  summary: string;
  description?: string;
}

/** A write's words and shapes: `write` answers the status and the body; a refusal or a failed step it leaves to `settle` (errors.ts). */
type Write<O, P, B extends Schema, A> = Words & {
  body: B;
  /** An empty body means the defaults (a device address: the lowest free one). */
  bodyOptional?: true;
  answers: A;
  errors: number[];
  failed?: readonly [string, Schema];
  write(a: Access<O>, p: P, body: z.infer<B>): Promise<readonly [keyof A & number, unknown]>;
};

const READ_ERRORS = [400, 401, 404, 501, 503] as const;

/** What every declared route's contract starts with. */
function head(path: string, tag: string, d: Words) {
  return { path, tags: [tag], ...bearer, summary: d.summary, ...(d.description ? { description: d.description } : {}) };
}

/**
 * Registers a route built here. The contract's types are generic in these factories, where Hono's
 * inference cannot follow; each declaration's own functions are typed by its schemas instead.
 */
function plain(route: RouteConfig, handler: (c: Ctx, deps: AppDeps, params: never) => Promise<Response>): Registration {
  return (app, deps) => {
    app.openapi(route, ((c: Ctx) => handler(c, deps, (c.req as unknown as { valid(target: 'param'): never }).valid('param'))) as never);
  };
}

/** A route's parameters once validated: `{t}` and the object's own. */
type ParamsOf<P extends Params> = z.infer<P> & { t: string };
type Answers = Record<number, readonly [string, Schema]>;

/** A resource's collection (list, create): its object's path without the last segment. */
const collectionOf = (r: Resource<unknown, Params>) => r.item.slice(0, r.item.lastIndexOf('/'));

/** The routes of one tenant resource, each declared by its own words and work. */
export function resource<O, P extends Params>(r: Resource<O, P>) {
  return {
    /** GET the tenant's collection: `{ <items>: [...] }`. */
    list: <S extends Schema>(d: Words & { answer: [string, S]; list(a: Access<O>, tenant: string): Promise<z.infer<S>> }) => listRoute(r, d),
    /** GET one object, or 404 saying what was not found. */
    get: <S extends Schema>(d: Words & { answer: [string, S]; missing: string; read(a: Access<O>, p: ParamsOf<P>): Promise<z.infer<S> | undefined> }) =>
      getRoute(r, d),
    /** DELETE one object: 204, or the statuses `errors` lists (a 502 may carry `failure`). */
    delete: (d: Words & { done: string; errors: number[]; failure?: [string, Schema]; remove(a: Access<O>, p: ParamsOf<P>): Promise<void> }) =>
      deleteRoute(r, d),
    /** POST a new object to the tenant's collection. */
    create: <B extends Schema, const A extends Answers>(d: Write<O, { t: string }, B, A>) => writeRoute(r, 'post', collectionOf(r), TenantParam, d),
    /** PUT (or POST) the object at its own path. */
    write: <B extends Schema, const A extends Answers>(d: Write<O, ParamsOf<P>, B, A> & { method: 'post' | 'put' }) =>
      writeRoute(r, d.method, r.item, r.params, d),
  };
}

function listRoute<O, S extends Schema>(r: Resource<O, Params>, d: Words & { answer: [string, S]; list(a: Access<O>, tenant: string): Promise<z.infer<S>> }) {
  const route = createRoute({
    method: 'get',
    ...head(collectionOf(r), r.tag, d),
    request: { params: TenantParam },
    responses: { 200: answer(d.answer[0], d.answer[1]), ...errorResponses(...READ_ERRORS) },
  });
  return { route, register: plain(route, async (c, deps, p: { t: string }) => c.json(await d.list(await r.access(c, deps, p.t), p.t), 200)) };
}

function getRoute<O, P extends Params, S extends Schema>(
  r: Resource<O, P>,
  d: Words & { answer: [string, S]; missing: string; read(a: Access<O>, p: ParamsOf<P>): Promise<z.infer<S> | undefined> },
) {
  const route = createRoute({
    method: 'get',
    ...head(r.item, r.tag, d),
    request: { params: r.params },
    responses: { 200: answer(d.answer[0], d.answer[1]), ...errorResponses(...READ_ERRORS) },
  });
  return { route, register: plain(route, async (c, deps, p: ParamsOf<P>) => c.json(found(await d.read(await r.access(c, deps, p.t), p), d.missing), 200)) };
}

function deleteRoute<O, P extends Params>(
  r: Resource<O, P>,
  d: Words & { done: string; errors: number[]; failure?: [string, Schema]; remove(a: Access<O>, p: ParamsOf<P>): Promise<void> },
) {
  const route = createRoute({
    method: 'delete',
    ...head(r.item, r.tag, d),
    request: { params: r.params },
    responses: { 204: { description: d.done }, ...errorResponses(...d.errors), ...(d.failure ? { 502: answer(d.failure[0], d.failure[1]) } : {}) },
  });
  const register = plain(route, async (c, deps, p: ParamsOf<P>) => {
    await d.remove(await r.access(c, deps, p.t), p);
    return c.body(null, 204);
  });
  return { route, register };
}

/** POST or PUT: an ensure that honours `Idempotency-Key`. */
function writeRoute<O, Q extends Params, B extends Schema, const A extends Answers>(
  r: Resource<O, Params>,
  method: 'post' | 'put',
  path: string,
  params: Q,
  d: Write<O, ParamsOf<Q>, B, A>,
) {
  const route = createRoute(
    idempotent({
      method,
      ...head(path, r.tag, d),
      request: { params, body: { required: !d.bodyOptional, content: { 'application/json': { schema: d.body } } } },
      responses: responses(d.answers, d.errors, d.failed) as RouteConfig['responses'],
    }),
  );
  const register = plain(route, async (c, deps, p: ParamsOf<Q>) => {
    const access = await r.access(c, deps, p.t);
    const body = (c.req as unknown as { valid(target: 'json'): z.infer<B> }).valid('json');
    const [status, answered] = await d.write(access, p, body);
    return c.json(answered, status as ContentfulStatusCode);
  });
  return { route, register };
}
