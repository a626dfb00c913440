import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/client';
import { OPERATION, TENANT_NAME } from '../core/search-attributes.js';

/**
 * How the API starts every run: calls for one id meet in the running execution, ids are reused
 * (create, delete, create again), and runs are filterable by tenant and operation in the UI.
 */
export function startOptions(taskQueue: string, operation: string, tenant: string) {
  return {
    taskQueue,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    typedSearchAttributes: [
      { key: TENANT_NAME, value: tenant },
      { key: OPERATION, value: operation },
    ],
  };
}
