import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { OPERATION, operationOf, TENANT_NAME } from '../../core/search-attributes.js';
import { DEFAULT_PARKED_MS } from '../../contracts/attempt.js';

/** Who the canaries' calls are audited as. */
export const CANARY_ACTOR = 'isolation-check';

/**
 * One call to an object's run, delivered as the API delivers it (apps/api/runs.ts): the run is
 * started when none is open under its id, and the call is its `attempt` update.
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
  return client.workflow.executeUpdateWithStart(update, { args: [req], startWorkflowOperation });
}
