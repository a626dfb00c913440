/**
 * One life per object (issue 42): what every mechanism (reconcile, plan, prune, the sweep, restore,
 * reads, repeats) decides an object's state from. An object's state is its registry row (what was
 * asked, its status), its runs (db/schema/object-runs.ts: in flight, parked after a failed step,
 * done) and what its backends hold. Pure: the registry reads are the caller's.
 */
import type { ObjectOutcome } from './backend-outcome.js';

/** Where a run of an object stands. */
/**
 * `failed`: the attempt failed at a step and the run ended without waiting for a repeat (a
 * reconcile); `given-up`: a parked run that no repeat came for; `superseded`: the object was
 * deleted while its run was parked.
 */
export type RunState = 'in-flight' | 'parked' | 'done' | 'failed' | 'given-up' | 'superseded';

/**
 * A failed step as a run recorded it, for an operator or a tenant calling REST: the step (the
 * area the 502 names), its activity, why (the failure's type: `BackendFailed` for a fault that
 * was retried, `BackendRefused` for a backend refusing on purpose), and the backend's answer as
 * the run's history holds it (no host, no secret: activities/step-failure.ts).
 */
export interface RunFailure {
  step: string;
  activity?: string;
  reason: string;
  backend?: string;
  status?: number;
  answer?: string;
}

/** A run of an object, as the registry holds it. */
export interface ObjectRun {
  workflowId: string;
  runId: string;
  operation: string;
  state: RunState;
  failure?: RunFailure | null;
  since: Date;
  claimExpiresAt?: Date | null;
}

/** A run in flight or parked claims its object, until its claim expires (a run ended by hand). */
export function claims(run: ObjectRun, now: Date): boolean {
  if (run.state !== 'in-flight' && run.state !== 'parked') return false;
  return !run.claimExpiresAt || run.claimExpiresAt.getTime() > now.getTime();
}

/** The run that holds the object now: the newest claiming one. */
export function claimingRun(runs: readonly ObjectRun[], now: Date): ObjectRun | undefined {
  return newest(runs.filter((r) => claims(r, now)));
}

export function newest(runs: readonly ObjectRun[]): ObjectRun | undefined {
  return runs.reduce<ObjectRun | undefined>((a, r) => (!a || r.since.getTime() >= a.since.getTime() ? r : a), undefined);
}

/**
 * An object's life:
 * - `held`: a run in flight or parked claims it; only that run (or its repeat) changes it;
 * - `settled`: the registry holds it finished and no run claims it; a reconcile corrects it;
 * - `unfinished`: the registry holds it unfinished (its create gave up, or was ended by hand) and
 *   no run claims it; only a repeat of its create finishes it, so a reconcile leaves it alone;
 * - `absent`: neither the registry nor a run claims it; what a backend holds of it is `unknown`,
 *   and only that may be pruned.
 */
export type Life = { kind: 'held'; run: ObjectRun } | { kind: 'settled' } | { kind: 'unfinished'; run?: ObjectRun } | { kind: 'absent' };

export interface RegistryHolds {
  /** The registry has a row for it, in any status. */
  registered: boolean;
  /** Its row says it is finished (`ready`); objects without a status are finished once written. */
  finished: boolean;
}

export function lifeOf(row: RegistryHolds, runs: readonly ObjectRun[], now: Date): Life {
  const run = claimingRun(runs, now);
  if (run) return { kind: 'held', run };
  if (!row.registered) return { kind: 'absent' };
  if (row.finished) return { kind: 'settled' };
  const last = newest(runs);
  return last ? { kind: 'unfinished', run: last } : { kind: 'unfinished' };
}

/** Only a settled object is re-ensured by a reconcile. */
export const mayCorrect = (life: Life): boolean => life.kind === 'settled';

/** Only what nothing claims may be removed by a prune. */
export const mayPrune = (life: Life): boolean => life.kind === 'absent';

/** How a run is named in a report and a condition: `workload-create/acme/web` (the `Run-Id` header's value). */
export const runName = (run: Pick<ObjectRun, 'workflowId'>): string => run.workflowId;

/** Runs whose success removes their object: the call an unfinished one of them leaves to repeat is a delete. */
const REMOVING = /-(delete|revoke|release)$/;

/**
 * Who holds an object that is not settled, for an operator: `run workload-create/acme/db, parked
 * after its dns step failed`, `run tenant-create/acme, in flight`, `its last run ... ended given-up`.
 */
export function lifeText(life: Life): string {
  if (life.kind === 'held') {
    const { run } = life;
    if (run.state !== 'parked') return `run ${runName(run)}, in flight`;
    return `run ${runName(run)}, parked after ${run.failure ? `its ${run.failure.step} step failed` : 'a failed step'}`;
  }
  if (life.kind === 'unfinished') return life.run ? `its last run ${runName(life.run)} ended ${life.run.state} before it finished` : 'no run holds it';
  return life.kind === 'settled' ? 'settled' : 'held by nothing';
}

/** What finishes an object that is not settled: the repeat of the call of its run (a parked run resumes). */
export function whatFinishes(life: Life): string {
  if (life.kind === 'held') return life.run.state === 'parked' ? 'its call repeated resumes the run' : 'the run finishes it';
  const removing = life.kind === 'unfinished' && life.run !== undefined && REMOVING.test(life.run.operation);
  return removing ? 'repeat its delete to finish it' : 'repeat its create to finish it';
}

/**
 * What a reconcile or a plan reports of an object it leaves alone (held: `in-flight` with its
 * run; unfinished: `unfinished`), with why and what finishes it; undefined for an object it may
 * correct (settled) or that nothing claims (absent: only a prune decides on it).
 */
export function leftAlone(object: string, life: Life): ObjectOutcome | undefined {
  if (life.kind !== 'held' && life.kind !== 'unfinished') return undefined;
  const { run } = life;
  return {
    object,
    result: life.kind === 'held' ? 'in-flight' : 'unfinished',
    ...(run ? { run: runName(run) } : {}),
    note: `${lifeText(life)}; ${whatFinishes(life)}`,
  };
}

/**
 * The condition of an object's newest run, as reads carry it (Crossplane's `Ready` condition):
 * ready or not, the run (its id, operation and state), since when, and the failure of a run
 * parked or given up after a failed step.
 */
export interface Condition {
  ready: boolean;
  run?: { id: string; run_id: string; operation: string; state: RunState };
  failure?: RunFailure;
  since?: string;
}

/**
 * `finished`: the object's own row says it is finished (what a read shows as its status). An
 * object no recorded run speaks of (created before runs were recorded) is ready when finished.
 */
export function conditionOf(finished: boolean, runs: readonly ObjectRun[]): Condition {
  const run = newest(runs);
  if (!run) return { ready: finished };
  const failed = run.state === 'parked' || run.state === 'given-up' || run.state === 'failed';
  return {
    ready: finished && run.state !== 'in-flight' && !failed,
    run: { id: run.workflowId, run_id: run.runId, operation: run.operation, state: run.state },
    ...(run.failure && failed ? { failure: run.failure } : {}),
    since: run.since.toISOString(),
  };
}
