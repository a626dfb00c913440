import { upsertMemo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * Workflow code (bundled into the sandbox): release N+1 of test/e2e/release-upgrade.test.ts is
 * release N with this change to every workflow's commands, its first command a memo naming the
 * release. A run begun on N replayed on N+1 meets that command where its history holds another,
 * a nondeterminism error: only a run left on N's workers finishes.
 */
export const NEXT_RELEASE = 'next';

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        upsertMemo({ release: NEXT_RELEASE });
        return next(input);
      },
    },
  ],
});
