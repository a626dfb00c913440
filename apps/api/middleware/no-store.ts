import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';

/**
 * Every answer of /v1 and /codec is for its caller alone and may carry secrets that are shown once
 * (a create's, a replayed create's, a decoded payload): no cache keeps it, and no browser reads it
 * as anything but its declared type. Set after the route, the error mapping or the replay answered,
 * so every answer carries it, a refusal included.
 */
export function noStore(): MiddlewareHandler<AppEnv> {
  return async function answersNotKept(c, next) {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  };
}
