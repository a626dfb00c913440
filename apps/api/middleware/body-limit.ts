import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../context.js';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Refuses bodies over 64 KB with 413. Hono's limiter checks Content-Length first and otherwise
 * counts a chunked stream as it arrives, so an oversized body is never buffered whole.
 */
export function limitBody(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ error: 'request body larger than 64 KB' }, 413),
  });
  return async function bodyLimitWhenBody(c, next) {
    // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3). Skipping
    // the limiter then matters for reads: asking for the body builds a whole fetch Request.
    if (c.req.header('transfer-encoding') === undefined && c.req.header('content-length') === undefined) return next();
    return limit(c, next);
  };
}
