import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { pathMatcher } from '../idempotency/request.js';

/**
 * Whether a request is one of `routes` (method and path template). For middlewares of the /v1
 * chain, which run before Hono has matched a route: `routes` is read at the first request, once
 * every route is registered.
 */
export function routeMatcher(routes: () => RouteConfig[]): (c: Context) => boolean {
  let compiled: { method: string; path: RegExp }[] | undefined;
  return (c) =>
    (compiled ??= routes().map((r) => ({ method: r.method.toUpperCase(), path: pathMatcher(r.path) }))).some(
      (r) => r.method === c.req.method && r.path.test(c.req.path),
    );
}
