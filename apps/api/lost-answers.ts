import { setTimeout as sleep } from 'node:timers/promises';
import { ANSWER_HANDING_BOUND_MS, answerDelivered, answerHanding, collectAnswer } from '../../db/queries/object-runs.js';
import type { Db } from '../../db/registry.js';
import { open, type SealKeys } from '../../db/seal.js';
import { collectedAnswer } from './middleware/run-headers.js';
import type { Site } from '../config/env.js';
import { sealKeys } from '../config/keys.js';
import { callDigest } from '../../core/call-digest.js';

/**
 * Answers a caller may not have received, kept in the registry for every API instance (issue 42
 * item 3). A run keeps each success sealed beside its object (db/schema/object-runs.ts), with a
 * digest of the call it answered; the API instance that hands it to a caller marks it delivered
 * once the response carrying it has been written out (middleware/run-headers.ts). An answer no instance
 * handed out (the call answered 503 because Temporal went away while the run went on, the
 * connection dropped, or the instance was killed) is collected by the repeat of the same call at
 * any instance, restarted or not: a create's secrets instead of a 409, a delete's 204 instead of a
 * 404. An instance marks an answer being handed before it writes it out and delivered once
 * written: a repeat that finds it being handed waits for the delivery (then is answered as the
 * spec says, secrets shown once) or, when the instance died mid-write, for the mark's bound (then
 * collects it). With an
 * `Idempotency-Key` the repeat that takes over a dead instance's key collects it the same way, and
 * answers `Idempotent-Replayed: true`.
 */
export interface LostAnswers {
  /** The run's kept answer to this very call (`request`) nobody was handed; undefined when there is none. */
  collect<R>(workflowId: string, request: unknown): Promise<R | undefined>;
  /** The answer named is about to be written out to a caller. */
  handing(workflowId: string, answerId: string): Promise<void>;
  /** The answer named went out to a caller. */
  delivered(workflowId: string, answerId: string): Promise<void>;
}

/** How often a repeat looks again at an answer another instance is writing out. */
const HANDING_POLL_MS = 25;

export function lostAnswers(db: Db, keys: SealKeys, windowMs: number): LostAnswers {
  return {
    async collect<R>(workflowId: string, request: unknown): Promise<R | undefined> {
      const digest = callDigest(request);
      const deadline = Date.now() + ANSWER_HANDING_BOUND_MS + 1000;
      let kept = await collectAnswer(db, workflowId, digest, windowMs);
      while (kept === 'being-handed' && Date.now() < deadline) {
        await sleep(HANDING_POLL_MS);
        kept = await collectAnswer(db, workflowId, digest, windowMs);
      }
      if (kept === undefined || kept === 'being-handed') return undefined;
      // Sealed under a key the site no longer holds: nothing to hand out; the call runs afresh.
      const raw = open(keys, kept.sealed);
      if (!raw) return undefined;
      // Marked delivered, once handed out, as any run's answer is (middleware/run-headers.ts).
      collectedAnswer(workflowId, kept.answerId);
      return JSON.parse(raw) as R;
    },
    handing: (workflowId, answerId) => answerHanding(db, workflowId, answerId),
    delivered: (workflowId, answerId) => answerDelivered(db, workflowId, answerId),
  };
}

/** The site's lost answers: sealed with its secrets key, kept for its idempotency window. */
export const siteLostAnswers = (site: Site, db: Db): LostAnswers => lostAnswers(db, sealKeys(site), site.idempotencyWindowMs);
