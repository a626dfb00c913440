/**
 * The vocabulary every backend adapter speaks. An adapter exposes observe / ensure / remove for
 * the objects of its product; ensure adopts what exists and corrects what drifted, and reports
 * per object what it found, so reconcile runs can say what they repaired.
 */
export type EnsureResult = 'in-place' | 'created' | 'corrected';

export interface ObjectOutcome {
  /** A stable, secret-free description of the backend object, e.g. `zone acme.lab.example.`. */
  object: string;
  result: EnsureResult;
}

/**
 * A backend refused or failed. `detail` goes to the service log only: it may name the backend's
 * host or path, so it never reaches an HTTP answer. `retryable` false means the backend refused
 * on purpose and repeating the same call now will not help.
 */
export class BackendError extends Error {
  override readonly name = 'BackendError';
  constructor(
    readonly product: string,
    readonly detail: string,
    readonly retryable = true,
    readonly status?: number,
  ) {
    super(`${product}: ${detail}`);
  }
}

/** Decide the outcome of one object from what was observed before the write. */
export function outcomeOf(object: string, existed: boolean, changed: boolean): ObjectOutcome {
  return { object, result: !existed ? 'created' : changed ? 'corrected' : 'in-place' };
}
