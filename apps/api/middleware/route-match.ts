import type { RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { pathMatcher } from '../idempotency/request.js';

/**
 * The routes of `routes` a request is (method and path template). For middlewares of the /v1
 * chain, which run before Hono has matched a route: `routes` is read at the first request, once
 * every route is registered.
 */
export function routesMatching(routes: () => RouteConfig[]): (c: Context) => RouteConfig[] {
  let compiled: { route: RouteConfig; method: string; path: RegExp }[] | undefined;
  return (c) =>
    (compiled ??= routes().map((route) => ({ route, method: route.method.toUpperCase(), path: pathMatcher(route.path) })))
      .filter((r) => r.method === c.req.method && r.path.test(c.req.path))
      .map((r) => r.route);
}

/** Whether a request is one of `routes` (see `routesMatching`). */
export function routeMatcher(routes: () => RouteConfig[]): (c: Context) => boolean {
  const matching = routesMatching(routes);
  return (c) => matching(c).length > 0;
}
