import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { badRequest, respondError } from '../errors.js';

/** A request that carries a body must say it is JSON (spec rule 8). */
export function requireJsonBody(): MiddlewareHandler<AppEnv> {
  return async function jsonOnly(c, next) {
    const hasBody = c.req.header('transfer-encoding') !== undefined || Number(c.req.header('content-length') ?? '0') > 0;
    if (hasBody && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return respondError(c, badRequest('content type must be application/json'));
    }
    return next();
  };
}
