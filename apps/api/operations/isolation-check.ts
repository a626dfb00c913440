import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { OPERATION, operationOf } from '../../../core/search-attributes.js';
import { runIds } from '../../../contracts/ids.js';
import type { IsolationCheckResult } from '../../../contracts/isolation-check.js';
import { latestIsolationCheck } from '../../../db/queries/isolation.js';
import type { Db } from '../../../db/registry.js';
import { isolationCheck } from '../../../workflows/index.js';
import { runUnavailable } from '../errors.js';
import { sawRun } from '../middleware/run-headers.js';

/** The isolation check over REST (issue 49): run one now, read the latest. */
export interface IsolationCheckOperations {
  /** Runs a check to its result; a check already running (the schedule's) is met, not doubled. */
  run(): Promise<IsolationCheckResult>;
  latest(): Promise<IsolationCheckResult | undefined>;
}

export function isolationCheckOperations(client: Client, taskQueue: string, db: Db): IsolationCheckOperations {
  return {
    async run() {
      const workflowId = runIds.isolationCheck;
      sawRun(workflowId);
      const answer = await client.workflow
        .execute(isolationCheck, {
          workflowId,
          taskQueue,
          args: [],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
          typedSearchAttributes: [{ key: OPERATION, value: operationOf(isolationCheck.name) }],
          staticSummary: "isolation check: each canary's credentials against the other canary's objects, from an operator's call",
        })
        .catch((err: unknown) => Promise.reject(runUnavailable(err)));
      sawRun(workflowId, answer);
      return answer;
    },
    latest: async () => (await latestIsolationCheck(db))?.result as IsolationCheckResult | undefined,
  };
}
