import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppDeps, AppEnv } from '../context.js';
import { found } from '../errors.js';
import { errorResponses, TenantParam } from '../schemas/common.js';
import { idempotent } from '../idempotency/contract.js';
import { answer, bearer, responses, type Registration } from './kit.js';

/**
 * The three routes every tenant resource has, declared by what differs between resources: the
 * path, the words, the shapes and the read or removal itself (through the resource's access
 * check). Creates differ too much to share a shape; they are written out in their own files.
 */
type Ctx = Context<AppEnv>;
type Params = z.ZodObject<{ t: z.ZodString } & z.ZodRawShape>;
type Schema = z.ZodType;

interface Words {
  path: string;
  tag: string;
  summary: string;
  description?: string;
}

const READ_ERRORS = [400, 401, 404, 501, 503] as const;

/** What every declared route's contract starts with, from its words. */
function head(d: Words) {
  return { path: d.path, tags: [d.tag], ...bearer, summary: d.summary, ...(d.description ? { description: d.description } : {}) };
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

/** GET a tenant's collection: `{ <items>: [...] }`. */
export function listRoute<S extends Schema>(d: Words & { answer: [string, S]; list(c: Ctx, deps: AppDeps, tenant: string): Promise<z.infer<S>> }) {
  const route = createRoute({
    method: 'get',
    ...head(d),
    request: { params: TenantParam },
    responses: { 200: answer(d.answer[0], d.answer[1]), ...errorResponses(...READ_ERRORS) },
  });
  return { route, register: plain(route, async (c, deps, p: { t: string }) => c.json(await d.list(c, deps, p.t), 200)) };
}

/** GET one object of a tenant, or 404 saying what was not found. */
export function getRoute<P extends Params, S extends Schema>(
  d: Words & { params: P; answer: [string, S]; missing: string; read(c: Ctx, deps: AppDeps, p: z.infer<P>): Promise<z.infer<S> | undefined> },
) {
  const route = createRoute({
    method: 'get',
    ...head(d),
    request: { params: d.params },
    responses: { 200: answer(d.answer[0], d.answer[1]), ...errorResponses(...READ_ERRORS) },
  });
  return { route, register: plain(route, async (c, deps, p: z.infer<P>) => c.json(found(await d.read(c, deps, p), d.missing), 200)) };
}

/** DELETE one object of a tenant: 204, or the statuses `errors` lists (a 502 may carry `failure`). */
export function deleteRoute<P extends Params>(
  d: Words & { params: P; done: string; errors: number[]; failure?: [string, Schema]; remove(c: Ctx, deps: AppDeps, p: z.infer<P>): Promise<void> },
) {
  const route = createRoute({
    method: 'delete',
    ...head(d),
    request: { params: d.params },
    responses: { 204: { description: d.done }, ...errorResponses(...d.errors), ...(d.failure ? { 502: answer(d.failure[0], d.failure[1]) } : {}) },
  });
  return {
    route,
    register: plain(route, async (c, deps, p: z.infer<P>) => {
      await d.remove(c, deps, p);
      return c.body(null, 204);
    }),
  };
}

/**
 * POST or PUT an object of a tenant: an ensure that honours `Idempotency-Key`. `write` answers the
 * status and the body; a refusal or a failed step it leaves to `settle` (errors.ts).
 */
export function writeRoute<P extends Params, B extends Schema, const O extends Record<number, readonly [string, Schema]>>(
  d: Words & {
    method: 'post' | 'put';
    params: P;
    body: B;
    /** An empty body means the defaults (a device address: the lowest free one). */
    bodyOptional?: true;
    answers: O;
    errors: number[];
    failed?: readonly [string, Schema];
    write(c: Ctx, deps: AppDeps, p: z.infer<P>, body: z.infer<B>): Promise<readonly [keyof O & number, unknown]>;
  },
) {
  const route = createRoute(
    idempotent({
      method: d.method,
      ...head(d),
      request: { params: d.params, body: { required: !d.bodyOptional, content: { 'application/json': { schema: d.body } } } },
      responses: responses(d.answers, d.errors, d.failed) as RouteConfig['responses'],
    }),
  );
  const register = plain(route, async (c, deps, p: z.infer<P>) => {
    const body = (c.req as unknown as { valid(target: 'json'): z.infer<B> }).valid('json');
    const [status, answered] = await d.write(c, deps, p, body);
    return c.json(answered, status as ContentfulStatusCode);
  });
  return { route, register };
}
