import type { Logger } from 'pino';
import { purgeExpiredIdempotencyKeys } from '../../../db/queries/idempotency.js';
import { purgeObjectRuns } from '../../../db/queries/object-runs.js';
import type { Registry } from '../../../db/registry.js';

/**
 * Deletes expired Idempotency-Key answers, and forgets the answers runs kept for lost calls
 * (db/queries/object-runs.ts), once past the window (sealed secrets must not outlive it), every
 * `everyMs`, a tenth of the window and at most 15 minutes. Each replica purges; the writes are
 * idempotent. Expired entries are ignored on lookup anyway, so the purge is about storage only.
 */
export function schedulePurge(registry: Registry, windowMs: number, log: Logger): () => void {
  const everyMs = Math.max(1_000, Math.min(windowMs / 10, 15 * 60_000));
  const timer = setInterval(() => {
    if (!registry.isMigrated) return;
    purgeExpiredIdempotencyKeys(registry.db)
      .then((n) => n > 0 && log.info({ purged: n }, 'expired idempotency answers purged'))
      .then(() => purgeObjectRuns(registry.db, windowMs))
      .then((n) => n > 0 && log.info({ purged: n }, 'runs of removed objects purged'))
      .catch((err: unknown) => log.warn({ err }, 'idempotency purge failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
