import type { UpdateDefinition } from '@temporalio/common';
import { allHandlersFinished, ApplicationFailure, CancellationScope, condition, isCancellation, setCurrentDetails, setHandler } from '@temporalio/workflow';
import { objectGone } from '../contracts/attempt.js';
import { begunWith } from './patches.js';
import { answered } from './run-attributes.js';
import { parkedDetails } from './run-details.js';
import { answering, answersCall, failureOfLastAttempt, parksAfterFailure, runEnded } from './run-step.js';

/**
 * How a run serves the calls delivered to it by update-with-start. Every call is an attempt.
 * - `parked`: one request repeated (a create, a delete, an issue, a revoke). A call arriving while
 *   an attempt runs joins it and gets its result, so concurrent identical calls converge.
 * - `serial`: calls that may differ (a workload's size, a record's address). Attempts run one after
 *   another in arrival order and never interleave their writes; the last request is what stays.
 *   The run ends when no attempt is left, unless the last one failed.
 * After a failed attempt the run parks for the repeat, which resumes it (the same run, so its
 * history, `FailedSteps` and `Outcome='resumed'` tell the whole story): its current details say
 * what failed (step, backend, answer) first, then until when it waits; a resume clears them. Parked longer than `parkedTimeoutMs`, it gives up and ends
 * Failed, so a run that never converged is found with `ExecutionStatus='Failed'`. A serial run
 * begun before the run model (no `park`) ends after a failed attempt as it did then.
 */
export interface Parking<Res> {
  parkedTimeoutMs: number;
  /** The call a repeat makes, for the run's details: `workload create`. */
  call: string;
  failedStep?(res: Res): string | undefined;
}

export type AttemptPolicy<Res> = ({ kind: 'parked' } & Parking<Res>) | { kind: 'serial'; park?: Parking<Res> };

export async function serveAttempts<Req, Res extends { kind: string }>(
  update: UpdateDefinition<Res, [Req]>,
  attempt: (req: Req) => Promise<Res>,
  policy: AttemptPolicy<Res>,
): Promise<Res | undefined> {
  // Each attempt knows the call it answers: the registry keeps its answer for a repeat of that call.
  const answer = (req: Req) => {
    answersCall(req);
    return attempt(req);
  };
  const calls = policy.kind === 'parked' ? joined(answer) : serial(answer);
  const parking = policy.kind === 'parked' ? policy : policy.park;
  if (parking) parksAfterFailure(parking.parkedTimeoutMs);
  setHandler(update, calls.handle);
  setHandler(objectGone, () => {
    calls.gone = true;
  });

  try {
    if (policy.kind === 'serial') {
      // Update-with-start delivers the first call with the start; the bound only guards a start without one.
      await condition(() => calls.served() > 0 && !calls.busy(), '1 hour');
      if (policy.park && calls.last()?.kind === 'failed') await parkBetweenAttempts(calls, policy.park);
    } else {
      await parkBetweenAttempts(calls, policy);
    }
  } catch (err) {
    // A cancelled run lets the attempt it is running end first: its lease is released on the way
    // out (workflows/tenant-lease.ts), and the run's completion stays its last command.
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => condition(allHandlersFinished));
    throw err;
  }
  await condition(allHandlersFinished);
  return calls.last();
}

interface Calls<Req, Res> {
  /** The API said the object was deleted (objectGone): a parked run ends. */
  gone?: boolean;
  handle(req: Req): Promise<Res>;
  busy(): boolean;
  served(): number;
  last(): Res | undefined;
}

/** Calls that arrive while an attempt runs join it, and after a successful one get its answer. */
function joined<Req, Res>(attempt: (req: Req) => Promise<Res>): Calls<Req, Res> {
  let running: Promise<Res> | undefined;
  let last: Res | undefined;
  let served = 0;
  return {
    async handle(req) {
      // A call arriving after an attempt succeeded, while the run ends, gets that answer: it is
      // the same request repeated (a create whose answer was lost to Temporal restarting), and a
      // fresh attempt would answer it 409 with the secrets just issued never shown (issue 31).
      if (!running && last !== undefined && (last as { kind?: string }).kind !== 'failed' && begunWith('join-settled-answer')) {
        served++;
        return last;
      }
      running ??= attempt(req).finally(() => {
        running = undefined;
      });
      last = await running;
      served++;
      return last;
    },
    busy: () => running !== undefined,
    served: () => served,
    last: () => last,
  };
}

/** Calls run one after another, in arrival order. */
function serial<Req, Res>(attempt: (req: Req) => Promise<Res>): Calls<Req, Res> {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let served = 0;
  let last: Res | undefined;
  return {
    async handle(req) {
      waiting++;
      const mine = tail.then(() => attempt(req));
      tail = mine.catch(() => undefined);
      try {
        last = await mine;
        return last;
      } finally {
        waiting--;
        served++;
      }
    },
    busy: () => waiting > 0,
    served: () => served,
    last: () => last,
  };
}

/** The step a failed answer names: its `step`, unless the policy says otherwise. */
const stepOf = <Res>(policy: Parking<Res>, res: Res): string => (policy.failedStep ? policy.failedStep(res) : (res as { step?: string }).step) ?? 'unknown';

async function parkBetweenAttempts<Req, Res extends { kind: string }>(calls: Calls<Req, Res>, policy: Parking<Res>): Promise<void> {
  const { parkedTimeoutMs, call } = policy;
  for (;;) {
    const last = calls.last();
    if (last?.kind === 'failed') {
      const until = new Date(Date.now() + parkedTimeoutMs).toISOString();
      setCurrentDetails(parkedDetails({ step: stepOf(policy, last), failure: failureOfLastAttempt(), until, call }));
    }
    const summary = last ? `parked: waiting for a repeat of the ${call}` : `waiting for the ${call}`;
    const woke = await condition(() => calls.busy() || (last?.kind === 'failed' && calls.gone === true), parkedTimeoutMs, { summary });
    if (!woke) break;
    if (!calls.busy()) {
      // The object was deleted while this run waited for a repeat: nothing is left to resume.
      setCurrentDetails('');
      answered('superseded');
      await runEnded('superseded');
      return;
    }
    setCurrentDetails('');
    await condition(() => !calls.busy());
    const after = calls.last();
    if (after && after.kind !== 'failed') return;
  }
  const last = calls.last();
  if (last?.kind === 'failed') {
    await condition(allHandlersFinished);
    await runEnded('given-up', failureOfLastAttempt());
    throw ApplicationFailure.nonRetryable(
      `gave up: step "${stepOf(policy, last)}" failed and no repeat of the ${call} came within ${Math.round(parkedTimeoutMs / 1000)} s`,
      'ParkedTimeout',
    );
  }
}

/**
 * An object's run (workflows/run-step.ts): its calls served as attempts under `policy`, each
 * answered, so `Outcome` and the step activities it ran follow every attempt.
 */
export function serveRun<Req, Res extends { kind: string }>(
  update: UpdateDefinition<Res, [Req]>,
  attempt: (req: Req) => Promise<Res>,
  policy: AttemptPolicy<Res>,
  success?: (res: Res) => string,
): Promise<Res | undefined> {
  return serveAttempts(update, (req) => answering(() => attempt(req), success), policy);
}
