import { Context } from '@temporalio/activity';
import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { OPERATION, operationOf, TENANT_NAME } from '../../core/search-attributes.js';
import { DEFAULT_PARKED_MS } from '../../contracts/attempt.js';

/** Who the canaries' calls are audited as. */
export const CANARY_ACTOR = 'isolation-check';

/**
 * One call to an object's run, delivered as the API delivers it (apps/api/runs.ts): the run is
 * started when none is open under its id, and the call is its `attempt` update.
 *
 * The wait ends with the activity's attempt: the run it waits for is served by this worker's own
 * pollers, which a stopping worker no longer runs, so an uncancellable wait held the worker's
 * shutdown (and a lab's Ctrl-C) for ever when an hourly check began as the worker stopped.
 */
export async function deliver<Ret, Req>(
  client: Client,
  taskQueue: string,
  workflowType: string,
  workflowId: string,
  tenant: string,
  update: UpdateDefinition<Ret, [Req]>,
  req: Req,
  input: object = { name: tenant },
): Promise<Ret> {
  const startWorkflowOperation = new WithStartWorkflowOperation(workflowType, {
    workflowId,
    taskQueue,
    args: [{ ...input, parkedTimeoutMs: DEFAULT_PARKED_MS }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    typedSearchAttributes: [
      { key: TENANT_NAME, value: tenant },
      { key: OPERATION, value: operationOf(workflowType) },
    ],
    staticSummary: `${operationOf(workflowType)} of tenant ${tenant}, for the isolation check's canary pair`,
  });
  return client.withAbortSignal(Context.current().cancellationSignal, () =>
    client.workflow.executeUpdateWithStart(update, { args: [req], startWorkflowOperation }),
  );
}
