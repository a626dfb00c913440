import type { Activities } from '../../activities/index.js';
import type { FORMER_ACTIVITY_NAMES } from '../../contracts/former-names.js';

/** What a run begun before `run-model` schedules: today's activities under their former names too. */
export type FormerActivities = Activities & {
  [K in keyof typeof FORMER_ACTIVITY_NAMES]: Activities[(typeof FORMER_ACTIVITY_NAMES)[K]];
};
