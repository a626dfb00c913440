import type { MiddlewareHandler } from 'hono';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppEnv } from '../context.js';
import { requestScope } from '../logger.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (the caller's X-Request-Id when sane) that every log line of it carries. */
export function requestContext(log: Logger): MiddlewareHandler<AppEnv> {
  return async function withRequestContext(c, next) {
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.set('log', log);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await requestScope.run(requestId, async () => {
      await next();
      log.info(
        { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    });
  };
}
