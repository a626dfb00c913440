import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context.js';

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

export function handle<R extends RouteConfig>(route: R, handler: (c: Parameters<RouteHandler<R, AppEnv>>[0], deps: AppDeps) => ReturnType<RouteHandler<R, AppEnv>>): Registration {
  return (app, deps) => {
    app.openapi(route, (c) => handler(c, deps));
  };
}
