import { patched } from '@temporalio/workflow';
import { BEFORE_ONE_NAME } from '../../contracts/former-names.js';

/** The patch that marks a run begun with the one name of each activity (issue 20). */
export const ONE_NAME_PATCH = 'one-name';

/**
 * The name to schedule a renamed activity under in a run begun before `run-model`: its name of
 * issue 20, or the one before while replaying a run that scheduled it before the rename (such a
 * history has no `one-name` marker).
 */
export function activityName<K extends keyof typeof BEFORE_ONE_NAME>(name: K): K {
  return (patched(ONE_NAME_PATCH) ? name : BEFORE_ONE_NAME[name]) as K;
}
