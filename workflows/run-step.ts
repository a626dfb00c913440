import { ApplicationFailure, proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { STEP_OPTIONS } from './activity-options.js';
import { failedStepOf, isStepFailure } from './failures.js';
import { answered, atStep, stepFailed } from './run-attributes.js';

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

let ran: RanStep[] = [];
let failedEarlier = false;

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
  try {
    const value = await step.executeWithOptions({ ...(about.options ?? STEP_OPTIONS), summary: about.object }, args);
    ran.push({ activity, ok: true });
    return { ok: true, value };
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    const type = (err.cause instanceof ApplicationFailure ? err.cause : err instanceof ApplicationFailure ? err : undefined)?.type ?? undefined;
    if (type && about.refusals?.includes(type)) return { ok: false, step: area, refused: type };
    const named = failedStepOf(err);
    const failed = named !== undefined && (about.areas ?? [area]).includes(named) ? named : area;
    stepFailed(failed);
    ran.push({ activity, ok: false });
    return { ok: false, step: failed };
  }
}

export type Answered<R> = R & { ran: RanStep[] };

/**
 * One attempt of a run, answered: `Outcome` is `refused` or `failed` as the answer says,
 * `resumed` for a success after a failed attempt of the same run, else what `success` names
 * (`created`, `deleted`, ...; by default the answer's kind).
 */
export async function answering<R extends { kind: string }>(work: () => Promise<R>, success: (r: R) => string = (r) => r.kind): Promise<Answered<R>> {
  ran = [];
  const resumes = failedEarlier;
  const result = await work();
  const failedOrRefused = result.kind === 'failed' || result.kind === 'refused';
  if (result.kind === 'failed') failedEarlier = true;
  answered(failedOrRefused ? result.kind : resumes ? 'resumed' : success(result));
  return Object.assign(result, { ran: [...ran] });
}
