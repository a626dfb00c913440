import type { Logger } from 'pino';
import { purgeExpiredIdempotencyKeys } from '../../../db/queries/idempotency.js';
import type { Registry } from '../../../db/registry.js';

/**
 * Deletes expired Idempotency-Key answers (sealed secrets must not outlive the window) every
 * `everyMs`, a tenth of the window and at most 15 minutes. Each replica purges; the delete is
 * idempotent. Expired entries are ignored on lookup anyway, so the purge is about storage only.
 */
export function schedulePurge(registry: Registry, windowMs: number, log: Logger): () => void {
  const everyMs = Math.max(1_000, Math.min(windowMs / 10, 15 * 60_000));
  const timer = setInterval(() => {
    if (!registry.isMigrated) return;
    purgeExpiredIdempotencyKeys(registry.db)
      .then((n) => n > 0 && log.info({ purged: n }, 'expired idempotency answers purged'))
      .catch((err: unknown) => log.warn({ err }, 'idempotency purge failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
