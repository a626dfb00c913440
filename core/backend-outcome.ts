/**
 * The vocabulary every backend adapter speaks. An adapter exposes observe / ensure / remove for
 * the objects of its product; ensure adopts what exists and corrects what drifted, and reports
 * per object what it found, so reconcile runs can say what they repaired.
 */
export type EnsureResult = 'in-place' | 'created' | 'corrected';

/**
 * What a reconcile found of an object besides: `needs-restore`, the registry holds it but cannot
 * rebuild it on the backend (a broker client whose password only the tenant holds, a Wi-Fi key
 * whose stored copy is unreadable); `unknown`, the backend holds an object of the tenant's that the
 * registry does not and no run claims (left alone unless the operator asks to prune); `removed`,
 * such an object pruned; `in-flight`, a run in flight or parked after a failed step holds it
 * (core/object-life.ts), so nothing else changes or removes it; `unfinished`, the registry holds it
 * unfinished and no run does (its create gave up): only the repeat of its create finishes it.
 */
export type ReconcileResult = EnsureResult | 'needs-restore' | 'unknown' | 'removed' | 'in-flight' | 'unfinished';

/**
 * How a reconcile treats what it finds: `correct` ensures each object (the default), `prune` also
 * removes what the registry does not hold, `plan` observes and writes nothing anywhere, reporting
 * what a `correct` would do in the same words.
 */
export type ReconcileMode = 'correct' | 'prune' | 'plan' | { only: readonly string[] };

/**
 * Whether a reconcile in `mode` removes `object`, one the registry does not hold and no run
 * claims: every such object with `prune`; with `{ only }` (a saved plan applied, core/saved-plan.ts)
 * only those the plan listed, by the name it showed them under.
 */
export const removes = (mode: ReconcileMode, object: string): boolean => mode === 'prune' || (typeof mode === 'object' && mode.only.includes(object));

export interface ObjectOutcome {
  /** A stable, secret-free description of the backend object, e.g. `zone acme.lab.example.`. */
  object: string;
  result: ReconcileResult;
  /** For `corrected`: the fields that differed, in the API's words (`cores`, `memory_mb`). */
  fields?: string[];
  /**
   * What the backend warned of while it made the object so, without failing the step (an SDN
   * apply that could not reload a node other than the workload node).
   */
  warnings?: string[];
  /**
   * The SDN apply that made a tenant's network run (network step, VNet): one of its own, carrying
   * `tenants` tenants' staged edits, or another tenant's that carried this one's. For a change of a
   * whole-object write (a Kea reservation, a Wi-Fi key on its WLAN): how many changes, this one
   * included, the write that carried it carried (`objects`).
   */
  batch?: { applied: 'by this tenant'; tenants: number } | { applied: 'by another tenant' } | { objects: number };
  /** For `in-flight`: the run that holds the object (its workflow id, the `Run-Id` header's value); for `unfinished`: its last run. */
  run?: string;
  /** For `in-flight` and `unfinished`: why the object was left alone, and what finishes it. */
  note?: string;
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
export function outcomeOf(object: string, existed: boolean, changed: boolean, fields?: string[]): ObjectOutcome {
  const result = !existed ? 'created' : changed ? 'corrected' : 'in-place';
  return { object, result, ...(result === 'corrected' && fields?.length ? { fields } : {}) };
}

/** What one change of a whole-object write came to: confirmed in the backend's answer, or failed alone. */
export type ChangeResult<R> = { ok: true; value: R } | { ok: false; error: unknown };
