import { WithStartWorkflowOperation, type Client, type WorkflowIdConflictPolicy, type WorkflowStartOptions } from '@temporalio/client';
import type { UpdateDefinition, Workflow, WorkflowResultType } from '@temporalio/common';
import { operationOf } from '../../core/search-attributes.js';
import { startOptions } from '../../temporal/start-options.js';
import { DEFAULT_PARKED_MS, objectGone } from '../../contracts/attempt.js';
import { runUnavailable } from './errors.js';
import { sawRun } from './middleware/run-headers.js';
import type { LostAnswers } from './lost-answers.js';

/**
 * How the API runs workflows, written once: by the workflow function itself (a renamed workflow,
 * changed arguments or a changed result fail the typecheck, not a call), with the start options
 * every run shares (temporal/start-options.ts; its `Operation` is the workflow's name), a static
 * summary naming operation, tenant and object, the run named in the answer's `Run-Id` header, and
 * Temporal being away answered as a 503 to repeat (the cause logged by the error map).
 */
export interface RunStart<W extends Workflow> {
  workflowId: string;
  args: Parameters<W>;
  tenant: string;
  /** What the run works on, for its static summary: `workload web`. Absent: the tenant itself. */
  object?: string;
  /** A static summary and memo for the UI. */
  extra?: { staticSummary?: string; memo?: Record<string, unknown> };
  /**
   * The call repeats one request (a run that parks for its repeat): an answer its run kept that no
   * caller was handed is this call's (apps/api/lost-answers.ts). Always so for `call`; off for a
   * call that asks something else of the object (a restore, a workload's new size).
   */
  collect?: boolean;
}

export interface Runs {
  /** Starts the run (or meets the one open under its id) and waits for its result. */
  execute<W extends Workflow>(workflow: W, start: RunStart<W>): Promise<WorkflowResultType<W>>;
  /** Delivers one call as an update to the object's run, starting the run when none is open. */
  attempt<W extends Workflow, Ret, Req>(workflow: W, update: UpdateDefinition<Ret, [Req]>, start: RunStart<W>, req: Req): Promise<Ret>;
  /**
   * A run whose calls are all the same request (a delete, a reserve, an issue): the request is the
   * update, and the start carries it too with the site's parked timeout, so a failed attempt parks
   * and the repeated call resumes the same run.
   */
  call<W extends Workflow, Ret, Req extends object>(
    workflow: W,
    update: UpdateDefinition<Ret, [Req]>,
    start: Omit<RunStart<W>, 'args'>,
    req: Req,
  ): Promise<Ret>;
  /**
   * After a delete answered `done`: the runs that built the object (`workload-create/acme/web`)
   * are told it is gone, so one parked after a failed attempt ends now instead of at its parked
   * timeout. Best effort: a run not open, or Temporal away, leaves the delete's answer as it is.
   */
  superseded<R extends { kind: string }>(result: R, done: R['kind'], workflowIds: string[]): Promise<R>;
}

export function runs(client: Client, taskQueue: string, parkedTimeoutMs = DEFAULT_PARKED_MS, lost?: LostAnswers): Runs {
  // The SDK types `args` with a conditional type TypeScript cannot resolve for a generic W;
  // RunStart's `args: Parameters<W>` is the same contract, checked at every caller.
  const options = <W extends Workflow>(workflow: W, s: RunStart<W>) => {
    const operation = operationOf(workflow.name);
    const staticSummary = `${operation} of ${s.object ? `${s.object} of ` : ''}tenant ${s.tenant}`;
    return {
      workflowId: s.workflowId,
      args: s.args,
      ...startOptions(taskQueue, operation, s.tenant),
      staticSummary,
      ...s.extra,
    } as unknown as WorkflowStartOptions<W> & { workflowIdConflictPolicy: WorkflowIdConflictPolicy };
  };
  async function attempt<W extends Workflow, Ret, Req>(workflow: W, update: UpdateDefinition<Ret, [Req]>, start: RunStart<W>, req: Req): Promise<Ret> {
    if (!start.collect || !lost) return deliver(workflow, update, start, req);
    const kept = await lost.collect<Ret>(start.workflowId, req);
    if (kept !== undefined) return kept;
    const answer = await deliver(workflow, update, start, req);
    // Refused (`already exists`) because the run that kept the lost answer ended just before this
    // call reached it: that answer is this call's.
    if ((answer as { kind?: string }).kind !== 'refused') return answer;
    return (await lost.collect<Ret>(start.workflowId, req)) ?? answer;
  }
  async function deliver<W extends Workflow, Ret, Req>(workflow: W, update: UpdateDefinition<Ret, [Req]>, start: RunStart<W>, req: Req): Promise<Ret> {
    sawRun(start.workflowId);
    // A run that is just completing refuses new updates; the next try starts a fresh run.
    for (let tries = 1; ; tries++) {
      const startWorkflowOperation = new WithStartWorkflowOperation(workflow, options(workflow, start));
      try {
        const answer = await client.workflow.executeUpdateWithStart(update, { args: [req], startWorkflowOperation });
        sawRun(start.workflowId, answer);
        return answer;
      } catch (err) {
        if (tries < 3 && /completed|not found|closed/i.test(String((err as Error).message))) continue;
        throw runUnavailable(err);
      }
    }
  }
  return {
    async execute(workflow, start) {
      sawRun(start.workflowId);
      const answer = await client.workflow.execute(workflow, options(workflow, start)).catch((err: unknown) => Promise.reject(runUnavailable(err)));
      sawRun(start.workflowId, answer);
      return answer;
    },
    attempt,
    async superseded(result, done, workflowIds) {
      if (result.kind === done)
        await Promise.all(
          workflowIds.map((id) =>
            client.workflow
              .getHandle(id)
              .signal(objectGone)
              .catch(() => undefined),
          ),
        );
      return result;
    },
    call: (workflow, update, start, req) =>
      attempt(workflow, update, { collect: true, ...start, args: [{ ...req, parkedTimeoutMs }] as unknown as Parameters<typeof workflow> }, req),
  };
}
