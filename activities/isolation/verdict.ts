import { ApplicationFailure } from '@temporalio/activity';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';

/** A crossing: a canary's credential reached the other canary's object. Never retried: it is an answer. */
export const ISOLATION_CROSSED = 'IsolationCrossed';
/** A canary's credential refused on its own object: the check cannot tell isolation from an outage. */
export const OWN_ACCESS_REFUSED = 'OwnAccessRefused';

/** One thing a probe tried (`update of the zone`, `read of the state key`) and whether the backend let it through. */
export interface Attempt {
  what: string;
  reached: boolean;
}

/**
 * What the probe's attempts come to. On its own objects every attempt must reach (else the check
 * is broken, and says which); on the other canary's, none may (else a crossing, naming the
 * backend, the credential's kind and what it reached, never the credential itself).
 */
export function verdict(backend: string, credential: string, input: ProbeInput, attempts: Attempt[]): ProbeAnswer {
  const own = input.credentialOf === input.objectOf;
  const list = attempts.map((a) => `${a.what}: ${a.reached ? 'reached' : 'refused'}`);
  if (own) {
    const refused = attempts.filter((a) => !a.reached).map((a) => a.what);
    if (refused.length) {
      throw ApplicationFailure.create({
        type: OWN_ACCESS_REFUSED,
        message: `${backend}: canary ${input.credentialOf}'s ${credential} was refused on its own objects (${refused.join(', ')}), so this backend's isolation is unknown`,
      });
    }
    return { result: 'reached', attempts: list };
  }
  const reached = attempts.filter((a) => a.reached).map((a) => a.what);
  if (reached.length) {
    throw ApplicationFailure.create({
      type: ISOLATION_CROSSED,
      nonRetryable: true,
      message: `${backend}: canary ${input.credentialOf}'s ${credential} reached canary ${input.objectOf}'s objects (${reached.join(', ')})`,
    });
  }
  return { result: 'refused', attempts: list };
}
