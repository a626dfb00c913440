import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { notConfigured, respondError } from '../errors.js';

/** Tenant routes answer 501 on an instance with no site configured. */
export function requireSite(configured: boolean, reason = 'no site configured'): MiddlewareHandler<AppEnv> {
  return async function siteGate(c, next) {
    if (!configured) return respondError(c, notConfigured(reason));
    return next();
  };
}
