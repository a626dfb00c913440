import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { badRequest, respondError } from '../errors.js';
import { repeatedMember } from './json-members.js';

/**
 * A request that carries a body must say it is JSON (spec rule 8), and may not name a member
 * twice in one object: `JSON.parse` would keep the last silently, so what the service acts on could
 * differ from what a proxy or an audit log read in the same bytes.
 */
export function requireJsonBody(): MiddlewareHandler<AppEnv> {
  return async function jsonOnly(c, next) {
    const hasBody = c.req.header('transfer-encoding') !== undefined || Number(c.req.header('content-length') ?? '0') > 0;
    if (hasBody && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') return respondError(c, badRequest('content type must be application/json'));
      const repeated = repeatedIn(await c.req.text());
      if (repeated) return respondError(c, badRequest(repeated));
    }
    return next();
  };
}

/** Why a body that names a member twice is refused; undefined for any other body (a malformed one is the validator's to refuse). */
function repeatedIn(text: string): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const path = repeatedMember(text);
  if (!path) return undefined;
  // The path is the caller's own bytes: named only when every part is a plain field name or index.
  const plain = path.every((p) => typeof p === 'number' || /^[A-Za-z0-9_-]{1,64}$/.test(p));
  return plain ? `duplicate field "${path.join('.')}"` : 'duplicate field in the request body';
}
