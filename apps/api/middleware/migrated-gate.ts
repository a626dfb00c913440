import type { MiddlewareHandler } from 'hono';
import type { Registry } from '../../../db/registry.js';
import type { AppEnv } from '../context.js';
import { notMigrated, respondError } from '../errors.js';

/** Every /v1 route answers 503 until the registry schema is migrated. */
export function requireMigrated(registry: Registry): MiddlewareHandler<AppEnv> {
  return async function migratedGate(c, next) {
    if (!registry.isMigrated) return respondError(c, notMigrated());
    return next();
  };
}
