import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context.js';
import { errorResponses } from '../schemas/common.js';

/**
 * The pieces every route contract repeats, so a route file states only what is its own: its
 * method, path, tag, summary, shapes and statuses. The OpenAPI document they produce is the same
 * as written out (test/contract/openapi.test.ts compares it with openapi.yaml).
 */

/** The API's one scheme: a bearer token (operator, tenant, enrollment or egress agent). */
export const bearer = { security: [{ bearer: [] }] };

/** A required JSON request body. */
export function jsonBody<S>(schema: S) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}

/** A JSON answer of the contract. */
export function answer<S>(description: string, schema: S) {
  return { description, content: { 'application/json': { schema } } } as const;
}

/** A route's handler with the app's dependencies, registered on its route. */
export type Registration = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => void;

export function handle<R extends RouteConfig>(
  route: R,
  handler: (c: Parameters<RouteHandler<R, AppEnv>>[0], deps: AppDeps) => ReturnType<RouteHandler<R, AppEnv>>,
): Registration {
  return (app, deps) => {
    app.openapi(route, (c) => handler(c, deps));
  };
}

type Answers<O> = { [K in keyof O]: O[K] extends readonly [string, infer S] ? { description: string; content: { 'application/json': { schema: S } } } : never };

/**
 * A route's answers: its successes by status (`[description, schema]`), the error statuses it
 * documents, and the 502 that carries the partial object when a backend step failed.
 */
export function responses<const O extends Record<number, readonly [string, unknown]>>(
  ok: O,
  errors: number[],
  failed?: readonly [string, unknown],
): Answers<O> {
  const out: Record<number, unknown> = { ...errorResponses(...errors) };
  for (const [status, [description, schema]] of Object.entries(ok)) out[Number(status)] = answer(description, schema);
  if (failed) out[502] = answer(failed[0], failed[1]);
  return out as Answers<O>;
}
