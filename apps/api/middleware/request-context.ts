import type { MiddlewareHandler } from 'hono';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppEnv } from '../context.js';
import { requestScope } from '../logger.js';
import type { RequestObserver } from '../../telemetry/http-metrics.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when sane) that every log line of it
 * carries, logs it when answered, and hands its timing to the request metrics when they are on.
 */
export function requestContext(log: Logger, observe?: RequestObserver): MiddlewareHandler<AppEnv> {
  return async function withRequestContext(c, next) {
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.set('log', log);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await requestScope.run(requestId, async () => {
      await next();
      const ms = performance.now() - started;
      log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(ms * 10) / 10 }, 'request');
      // By route template (the route that answered), never the raw path that names a tenant.
      observe?.(c.req.method, c.req.routePath, c.res.status, ms / 1000);
    });
  };
}
