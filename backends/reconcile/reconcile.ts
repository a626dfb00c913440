/**
 * The one reconciler every adapter's objects go through (issue 46, item 1). An object kind says
 * two things of its product: what the backend holds of one object and what differs from the
 * desired state (`observe`), and how to make the backend hold the desired state given that
 * (`apply`). From them alone come what a step reports: `ensure` observes, applies when anything
 * differs and reports what it found; `plan` observes and reports the same words, writing nothing.
 * The words of both are one function of the observation (`reported`), so a plan and the ensure
 * after it cannot disagree unless the backend changed in between.
 *
 * Nothing here knows Temporal, the registry or a product: a kind closes over its adapter's
 * context (the HTTP client, a read of a whole list shared by several objects).
 */
import { outcomeOf, type ObjectOutcome } from '../../core/backend-outcome.js';

/** What the backend holds of one object, as measured against its desired state. */
export interface Observation {
  exists: boolean;
  /**
   * What differs, field by field, secret-free, in the API's words (`NS`, `secret`, `servers`):
   * empty when the object matches. Nothing for an absent object: it is created, not corrected.
   */
  drift: string[];
}

/** What an apply learnt beyond what observe saw. */
export interface Applied<O extends Observation> {
  /**
   * The object as the apply found it made meanwhile by someone else (a create answered 409, then
   * read back): it is adopted, and reported as found, with this observation's drift.
   */
  adopted?: O;
  /**
   * Fields the apply found differing that no read could see before it corrected others (a password
   * checked by logging in, once the client may log in): reported with observe's.
   */
  found?: string[];
  /** The object as the apply left it, when an object ensured after it needs what it learnt (a created object's id). */
  held?: O;
}

/** One type of backend object (a zone, a forward, a route), over the adapter's context. */
export interface ObjectKind<D, O extends Observation = Observation> {
  /** The object's stable, secret-free name as its outcome carries it (`zone acme.lab.example.`). */
  object(desired: D): string;
  /** Reads alone: what the backend holds, and what differs from `desired`. */
  observe(desired: D): Promise<O>;
  /** Make the backend hold `desired`: create it when absent, else correct what `seen.drift` names. */
  apply(desired: D, seen: O): Promise<Applied<O> | void>;
  /**
   * What an ensure does to an object found as desired that is no difference of it, so no plan
   * reports it (a seat the service itself needs in it). Rare; most kinds have none.
   */
  upkeep?(desired: D, seen: O): Promise<void>;
}

/** Whether an ensure writes: the object is absent, or some field of it differs. */
export const differs = (seen: Observation): boolean => !seen.exists || seen.drift.length > 0;

/** The outcome of an object observed so: `created` (absent), `corrected` (with its fields) or `in-place`. */
export const reported = (object: string, seen: Observation): ObjectOutcome => outcomeOf(object, seen.exists, differs(seen), seen.drift);

/** An ensure or a plan of one object: its outcome, and what the backend holds of it as far as it learnt. */
export interface Converged<O extends Observation> {
  outcome: ObjectOutcome;
  /** What observe saw, or what the apply left (`held`) or found (`adopted`). */
  held: O;
}

/** Observe the object, apply the difference if there is one, report it. */
export async function converge<D, O extends Observation>(kind: ObjectKind<D, O>, desired: D): Promise<Converged<O>> {
  const observed = await kind.observe(desired);
  if (!differs(observed)) {
    await kind.upkeep?.(desired, observed);
    return { outcome: reported(kind.object(desired), observed), held: observed };
  }
  const applied = (await kind.apply(desired, observed)) ?? {};
  const before = applied.adopted ?? observed;
  const seen = applied.found?.length ? { ...before, drift: [...before.drift, ...applied.found] } : before;
  return { outcome: reported(kind.object(desired), seen), held: applied.held ?? seen };
}

/** What a step reports of one object after making it so. */
export async function ensure<D, O extends Observation>(kind: ObjectKind<D, O>, desired: D): Promise<ObjectOutcome> {
  return (await converge(kind, desired)).outcome;
}

/** What `converge` would report of one object, from reads alone, and what it read. */
export async function planned<D, O extends Observation>(kind: ObjectKind<D, O>, desired: D): Promise<Converged<O>> {
  const held = await kind.observe(desired);
  return { outcome: reported(kind.object(desired), held), held };
}

/** What `ensure` would report of one object, from reads alone. */
export async function plan<D, O extends Observation>(kind: ObjectKind<D, O>, desired: D): Promise<ObjectOutcome> {
  return (await planned(kind, desired)).outcome;
}

/** A read shared by the kinds observed after it (one list read for several objects); made once, on first use. */
export function once<T>(read: () => Promise<T>): () => Promise<T> {
  let held: Promise<T> | undefined;
  return () => (held ??= read());
}
