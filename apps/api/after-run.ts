import { isDatabaseUnreachable } from '../../db/unreachable.js';
import type { Logger } from './logger.js';

/**
 * A registry write that follows a run which has already changed the backends and may have minted
 * a secret shown once: the audit entry, the enrollment token spent, the idempotent answers the new
 * secret replaced. Should the registry be unreachable at that moment, the answer still goes out.
 * A 503 saying "repeat the call" would lose the secret: the repeat finds the tenant made (or the key
 * issued) and answers 409 without it (found by test/reliability/database-cut.test.ts). What was not
 * written goes to this log line instead, which the audit trail's reader has too. Any other error
 * still fails the call.
 */
export async function afterRun(log: Logger | undefined, what: Record<string, unknown>, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!isDatabaseUnreachable(err)) throw err;
    log?.warn({ err, not_written: what }, 'registry unreachable after the run answered: the write is in this line instead');
  }
}
