import {
  ApplicationFailure,
  CancellationScope,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  workflowInfo,
  type ActivityOptions,
  type TemporalFailure,
} from '@temporalio/workflow';
import { REGISTRY_UNAVAILABLE } from '../core/failure-types.js';
import type { Activities } from '../activities/index.js';
import type { RunSettled } from '../activities/object-runs.js';
import { objectOfRun } from '../contracts/ids.js';
import type { RunFailure } from '../core/object-life.js';
import { LIFE_OPTIONS, STEP_OPTIONS } from './activity-options.js';
import { failedStepOf, failureOf, isStepFailure } from './failures.js';
import { answered, atStep, stepFailed } from './run-attributes.js';
import { begunWith } from './patches.js';

/**
 * The one step machinery of every run, whatever object it works on (a tenant, a workload, a
 * record, a device address, a Wi-Fi key, a broker account). A backend step is an activity named
 * `<area>.<verb>` (`dns.ensure`, `hypervisor.ensure-vm`); while it runs the run's `Step` names its
 * area, a failure adds the area to `FailedSteps` (kept after a resume) and sets `Outcome` to
 * `failed`, and the activity's summary names the object. A run answers through `answering`, which
 * sets `Outcome` from the answer (`resumed` when an earlier attempt of the run failed) and
 * attaches the step activities the attempt ran (`ran`), which the API shows in its `Run-Steps`
 * header. Module state is per run: Temporal isolates each workflow execution's globals.
 */

/** A backend step activity: its type is `<area>.<verb>`. */
export type StepActivity = Extract<keyof Activities, `${string}.${string}`>;

/** `refused`: the backend refused on purpose with one of the step's `refusals` (an answer, not a failure). */
export type StepRun<T> = { ok: true; value: T } | { ok: false; step: string; refused?: string };

/** One step activity an attempt ran, and whether it passed. */
export interface RanStep {
  activity: string;
  ok: boolean;
}

export interface StepAbout {
  /** What the step works on, for the activity's summary: `workload web of tenant acme`. */
  object: string;
  options?: ActivityOptions;
  /**
   * The areas a failure may name (its first detail, activities/step-failure.ts) when the activity writes
   * to more than its own area (a device address: the router, then DNS). Default: its own area.
   */
  areas?: readonly string[];
  /** Failure types that are the backend's deliberate answer (a 409 to give), not the step failing. */
  refusals?: readonly string[];
}

const acts = proxyActivities<Activities>(STEP_OPTIONS);
const lives = proxyLocalActivities<Activities>(LIFE_OPTIONS);

let ran: RanStep[] = [];
let failedEarlier = false;
/** The failure of the attempt's last failed step, as its activity reported it. */
let lastFailure: RunFailure | undefined;
/** How long a failed attempt parks for its repeat; undefined for a run that ends after one (a reconcile). */
let parksFor: number | undefined;
let answers = 0;
/** The request of the call the next attempt answers (set by workflows/attempts.ts), kept with its answer. */
let call: unknown;
/** The attempt begun records its object's life, and has not claimed it yet. */
let claimPending = false;
/** The attempt in flight is settled when it answers (`answering`, for a run that records its object's life). */
let settles = false;
/** The attempt's leases are released by its settle (workflows/tenant-lease.ts left them held for it). */
let leasesToSettle = false;

/** The attempt server says which call's request the attempt about to begin answers. */
export function answersCall(request: unknown): void {
  call = request;
}

/** The area of a step activity: `hypervisor` of `hypervisor.ensure-vm`. */
export const areaOf = (activity: string): string => activity.slice(0, activity.indexOf('.'));

/** Runs one backend step activity; a step that failed after its retries is an answer, not a throw. */
export async function runStep<K extends StepActivity>(
  activity: K,
  args: Parameters<Activities[K]>,
  about: StepAbout,
): Promise<StepRun<Awaited<ReturnType<Activities[K]>>>> {
  const area = areaOf(activity);
  atStep(area);
  const step = acts[activity] as unknown as { executeWithOptions(o: ActivityOptions, a: unknown[]): Promise<Awaited<ReturnType<Activities[K]>>> };
  for (let waited = 0; ;) {
    try {
      const value = await step.executeWithOptions({ ...(about.options ?? STEP_OPTIONS), summary: about.object }, args);
      ran.push({ activity, ok: true });
      return { ok: true, value };
    } catch (err) {
      if (!isStepFailure(err)) throw err;
      const type = (err.cause instanceof ApplicationFailure ? err.cause : err instanceof ApplicationFailure ? err : undefined)?.type ?? undefined;
      // The registry away under the step: its backend did not fail. Waited out, then the step runs again.
      if (type === REGISTRY_UNAVAILABLE && waited < REGISTRY_WAIT_MS) {
        const pause = Math.min(5_000, 500 * 2 ** Math.min(4, Math.floor(waited / 1_000)));
        await sleep(pause);
        waited += pause;
        continue;
      }
      return stepFailedWith(err, activity, area, type, about);
    }
  }
}

/** How long a step waits for the registry to come back before the attempt fails: a lease's lifetime. */
const REGISTRY_WAIT_MS = 15 * 60_000;

/** A step that failed after its retries, or that its backend refused on purpose: an answer, not a throw. */
function stepFailedWith(
  err: TemporalFailure,
  activity: string,
  area: string,
  type: string | undefined,
  about: StepAbout,
): { ok: false; step: string; refused?: string } {
  if (type && about.refusals?.includes(type)) return { ok: false, step: area, refused: type };
  const named = failedStepOf(err);
  const failed = named !== undefined && (about.areas ?? [area]).includes(named) ? named : area;
  stepFailed(failed);
  ran.push({ activity, ok: false });
  lastFailure = failureOf(err, failed, activity, type);
  return { ok: false, step: failed };
}

/** Set by the attempt server of a run that parks after a failed attempt (workflows/attempts.ts). */
export function parksAfterFailure(parkedMs: number): void {
  parksFor = parkedMs;
}

/** Runs that keep no answer for a lost call: a reconcile hands out nothing once. */
const KEEPS_NO_ANSWER = new Set(['tenantReconcile']);
/** Runs whose success removes their object. */
const REMOVES = /(Delete|Revoke|Release)$/;

/** Whether this run records its object's life: a run of one object (not a plan, not the sweep), begun with the patch. */
function records(): boolean {
  return objectOfRun(workflowInfo().workflowId) !== undefined && begunWith('object-runs');
}

/** The attempt's object is claimed for its run, once it holds its tenant (the first lease granted). */
export async function claimObject(): Promise<void> {
  if (!claimPending) return;
  claimPending = false;
  await lives.claimRun();
}

/**
 * The object's claim, taken by the lease claim that grants the attempt its tenant (`claimLeases`
 * with `claimRun`, workflows/tenant-lease.ts) rather than by a local activity of its own: whether
 * the next claim must take it, and, once one has been granted, that it is taken.
 */
export const objectClaimPending = (): boolean => claimPending;
export function objectClaimedWithLease(): void {
  claimPending = false;
}

/**
 * Whether the attempt's settle can release its leases, one local activity for both: the attempt
 * is settled once it answers. Said yes to, the lease holder leaves its release to the settle.
 */
export function leasesReleasedWithSettle(): boolean {
  if (settles) leasesToSettle = true;
  return settles;
}

/** A parked run's end, recorded: it gave up waiting, or its object was deleted under it. */
export async function runEnded(state: 'given-up' | 'superseded', failure?: RunFailure): Promise<void> {
  if (records()) await lives.settleRun({ state, ...(failure ? { failure } : {}) });
}

/** The failure an attempt's failed answer recorded (for a give-up's record). */
export const failureOfLastAttempt = (): RunFailure | undefined => lastFailure;

/**
 * `failure`: on a failed answer, the failed step with the backend's answer (what a 502 body and a
 * read's condition show); `answer_id`: names the answer in the registry (db/schema/object-runs.ts),
 * so the API can say it was handed to a caller.
 */
export type Answered<R> = R & { ran: RanStep[]; failure?: RunFailure; answer_id?: string };

/**
 * One attempt of a run, answered: `Outcome` is `refused` or `failed` as the answer says,
 * `resumed` for a success after a failed attempt of the same run, else what `success` names
 * (`created`, `deleted`, ...; by default the answer's kind).
 */
export async function answering<R extends { kind: string }>(work: () => Promise<R>, success: (r: R) => string = (r) => r.kind): Promise<Answered<R>> {
  ran = [];
  lastFailure = undefined;
  // Taken before the first await: the next call's request is set only once this attempt has ended.
  const request = call;
  call = undefined;
  const recording = records();
  // Claimed once the attempt holds its tenant (workflows/tenant-lease.ts calls claimObject): a run
  // that only waits its turn holds nothing yet, and a reconcile or delete holding the tenant must
  // not take it for a run in flight.
  claimPending = recording;
  settles = recording;
  leasesToSettle = false;
  const resumes = failedEarlier;
  let result: R;
  try {
    result = await work();
  } finally {
    claimPending = false;
    settles = false;
  }
  const failedOrRefused = result.kind === 'failed' || result.kind === 'refused';
  if (result.kind === 'failed') failedEarlier = true;
  answered(failedOrRefused ? result.kind : resumes ? 'resumed' : success(result));
  const failure = result.kind === 'failed' ? (lastFailure ?? { step: (result as { step?: string }).step ?? 'unknown', reason: 'unknown' }) : undefined;
  const answer_id = recording ? await settle(result, failure, request) : undefined;
  return Object.assign(result, { ran: [...ran] }, failure ? { failure } : {}, answer_id ? { answer_id } : {});
}

/** How the attempt ended, in the registry; the kept answer's id when it kept one. */
async function settle<R extends { kind: string }>(result: R, failure: RunFailure | undefined, request: unknown): Promise<string | undefined> {
  const type = workflowInfo().workflowType;
  const s: RunSettled =
    result.kind === 'failed'
      ? { state: parksFor !== undefined ? 'parked' : 'failed', failure: failure!, ...(parksFor !== undefined ? { parkedMs: parksFor } : {}) }
      : { state: 'done' };
  let answerId: string | undefined;
  if (result.kind !== 'failed' && result.kind !== 'refused' && !KEEPS_NO_ANSWER.has(type)) {
    answerId = `${workflowInfo().runId}/${++answers}`;
    s.answer = { id: answerId, value: { ...result, ran: [...ran] }, ...(request !== undefined ? { request } : {}) };
    if (REMOVES.test(type)) s.removed = true;
  }
  const releasing = leasesToSettle;
  leasesToSettle = false;
  if (!releasing) {
    await lives.settleRun(s);
    return answerId;
  }
  try {
    await lives.settleRun({ ...s, releaseLeases: true });
  } catch (err) {
    // Still released however the settle ended, as the lease holder's own release would have been.
    await CancellationScope.nonCancellable(() => lives.releaseLeases());
    throw err;
  }
  return answerId;
}
