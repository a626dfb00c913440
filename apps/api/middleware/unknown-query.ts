import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { badRequest, respondError } from '../errors.js';
import { routesMatching } from './route-match.js';

/**
 * A query parameter the route's contract does not declare is refused, as an unknown body field is
 * (spec: General rules 6). Ignoring it would turn a typo into another call: `reconcile?pln=true`
 * would reconcile, writing to every backend, where the caller asked for a plan that writes nothing.
 * A declared parameter given twice is refused too. A request that matches no route is left to its 404.
 */
export function refuseUnknownQuery(routes: () => RouteConfig[]): MiddlewareHandler<AppEnv> {
  const matching = routesMatching(routes);
  return async function unknownQuery(c, next) {
    const given = Object.keys(c.req.queries());
    if (given.length === 0) return next();
    const served = matching(c);
    const declared = new Set(served.flatMap(queryNames));
    const unknown = served.length ? given.filter((name) => !declared.has(name)) : [];
    if (unknown.length) return respondError(c, badRequest(named('unknown query parameter', unknown)));
    // Which of two values a parser keeps differs (Hono's `query()` the first, a proxy's log perhaps
    // the last): a parameter given twice is refused, as a body field named twice is.
    const repeated = served.length ? given.filter((name) => (c.req.queries(name)?.length ?? 0) > 1) : [];
    if (repeated.length) return respondError(c, badRequest(named('duplicate query parameter', repeated)));
    return next();
  };
}

/** The names are the caller's own bytes: named only when each is a plain parameter name. */
function named(noun: string, names: string[]): string {
  const plain = names.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name));
  const nouns = `${noun}${names.length > 1 ? 's' : ''}`;
  return plain ? `${nouns} ${names.map((n) => `"${n}"`).join(', ')}` : nouns;
}

/** The query parameters a route declares (its `request.query` object's keys). */
function queryNames(route: RouteConfig): string[] {
  const query = route.request?.query as { shape?: Record<string, unknown> } | undefined;
  return Object.keys(query?.shape ?? {});
}
