import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { badRequest, respondError } from '../errors.js';
import { routeMatcher } from './route-match.js';

/** Whether a route's contract declares no request body. Reads (GET, HEAD) are not asked: they never take one. */
export function takesNoBody(route: RouteConfig): boolean {
  return route.method !== 'get' && route.method !== 'head' && route.request?.body === undefined;
}

/**
 * A route whose contract declares no body (reconcile, every DELETE) refuses one that has bytes:
 * any field there is an unknown field (spec: General rules 6), and bytes of another type are not
 * a request the route understands. No body, or a zero-length one (chunked too), is no body.
 */
export function refuseUndeclaredBody(routes: () => RouteConfig[]): MiddlewareHandler<AppEnv> {
  const bodiless = routeMatcher(() => routes().filter(takesNoBody));
  return async function noBody(c, next) {
    const length = c.req.header('content-length');
    const chunked = c.req.header('transfer-encoding') !== undefined;
    if ((length === undefined || Number(length) === 0) && !chunked) return next();
    if (!bodiless(c)) return next();
    // Content-Length says; a chunked body is read (the 64 KB limit bounds it) to see whether it is empty.
    const bytes = chunked ? (await c.req.arrayBuffer()).byteLength : Number(length);
    return bytes > 0 ? respondError(c, badRequest('this route takes no request body')) : next();
  };
}
