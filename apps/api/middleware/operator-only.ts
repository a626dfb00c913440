import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { requireOperator } from '../auth/authorize.js';
import type { AppEnv } from '../context.js';
import { routeMatcher } from './route-match.js';

/**
 * Authorization of the operator-only routes, right after authentication and before anything reads
 * the request: a tenant token is 403 `operator only` whatever it sent (spec: Authentication rule 3),
 * not the 400 of a body, path, query or Idempotency-Key the validators would refuse first; the
 * other recognised tokens are 401 as before. The one place these routes are authorized.
 */
export function operatorOnlyRoutes(routes: RouteConfig[]): MiddlewareHandler<AppEnv> {
  const operatorOnly = routeMatcher(() => routes);
  return async function authorizeOperator(c, next) {
    if (operatorOnly(c)) requireOperator(c);
    return next();
  };
}
