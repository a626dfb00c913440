import type { MiddlewareHandler } from 'hono';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppEnv } from '../context.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (the caller's X-Request-Id when sane) and a child logger carrying it. */
export function requestContext(log: Logger): MiddlewareHandler<AppEnv> {
  return async function withRequestContext(c, next) {
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    const child = log.child({ request_id: requestId });
    c.set('requestId', requestId);
    c.set('log', child);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    child.info(
      { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 },
      'request',
    );
  };
}
