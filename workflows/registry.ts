import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';

/** The registry's part of a run (reads, checks, rows written): local activities, under the registry's bound. */
export const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);
