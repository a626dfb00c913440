import { patched } from '@temporalio/workflow';
import { FORMER_ACTIVITY_NAMES } from './contracts/former-names.js';

/** The patch that marks a run begun with the one name of each activity. */
export const ONE_NAME_PATCH = 'one-name';

/**
 * The name to schedule a renamed activity under: its one name, or the former one while replaying
 * a run that scheduled it before the rename (such a history has no `one-name` marker). The worker
 * registers both names (apps/worker/worker.ts), for activity tasks still queued under the former.
 */
export function activityName<K extends keyof typeof FORMER_ACTIVITY_NAMES>(name: K): K {
  return (patched(ONE_NAME_PATCH) ? name : FORMER_ACTIVITY_NAMES[name]) as K;
}
