import { WithStartWorkflowOperation, type Client, type WorkflowIdConflictPolicy, type WorkflowStartOptions } from '@temporalio/client';
import type { UpdateDefinition, Workflow, WorkflowResultType } from '@temporalio/common';
import { operationOf } from '../../core/search-attributes.js';
import { startOptions } from '../../temporal/start-options.js';
import { runUnavailable } from './errors.js';

/**
 * How the API runs workflows, written once: by the workflow function itself (a renamed workflow,
 * changed arguments or a changed result fail the typecheck, not a call), with the start options
 * every run shares (temporal/start-options.ts; its `Operation` is the workflow's name), and Temporal being away answered as a 503 to
 * repeat (the cause logged by the error map).
 */
export interface RunStart<W extends Workflow> {
  workflowId: string;
  args: Parameters<W>;
  tenant: string;
  /** A static summary and memo for the UI. */
  extra?: { staticSummary?: string; memo?: Record<string, unknown> };
}

export interface Runs {
  /** Starts the run (or meets the one open under its id) and waits for its result. */
  execute<W extends Workflow>(workflow: W, start: RunStart<W>): Promise<WorkflowResultType<W>>;
  /** Delivers one call as an update to the object's run, starting the run when none is open. */
  attempt<W extends Workflow, Ret, Req>(workflow: W, update: UpdateDefinition<Ret, [Req]>, start: RunStart<W>, req: Req): Promise<Ret>;
}

export function runs(client: Client, taskQueue: string): Runs {
  // The SDK types `args` with a conditional type TypeScript cannot resolve for a generic W;
  // RunStart's `args: Parameters<W>` is the same contract, checked at every caller.
  const options = <W extends Workflow>(workflow: W, s: RunStart<W>) =>
    ({ workflowId: s.workflowId, args: s.args, ...startOptions(taskQueue, operationOf(workflow.name), s.tenant), ...s.extra }) as unknown as WorkflowStartOptions<W> & { workflowIdConflictPolicy: WorkflowIdConflictPolicy };
  return {
    execute: (workflow, start) => client.workflow.execute(workflow, options(workflow, start)).catch((err: unknown) => Promise.reject(runUnavailable(err))),
    async attempt(workflow, update, start, req) {
      // A run that is just completing refuses new updates; the next try starts a fresh run.
      for (let attempt = 1; ; attempt++) {
        const startWorkflowOperation = new WithStartWorkflowOperation(workflow, options(workflow, start));
        try {
          return await client.workflow.executeUpdateWithStart(update, { args: [req], startWorkflowOperation });
        } catch (err) {
          if (attempt < 3 && /completed|not found|closed/i.test(String((err as Error).message))) continue;
          throw runUnavailable(err);
        }
      }
    },
  };
}
