import type { ReconcileMode } from '../core/backend-outcome.js';

/**
 * What the tenant step activities (activities/tenant/step-activities.ts) and the reconcile
 * activities of the areas' objects are given. Apart from the step activities because the areas'
 * step modules read it: importing it from there closed a runtime import loop back through
 * the step list (activities/tenant-steps.ts) to the areas (test/contract/import-cycles.test.ts).
 */

/** What every tenant step activity is given: the tenant's name and index, never a secret. */
export interface StepInput {
  name: string;
  index: number;
}

/** What a reconcile's object areas are given: the tenant, and whether to prune what the registry does not hold. */
export interface ReconcileInput extends StepInput {
  prune: boolean;
  /** A saved plan applied with prune: only the objects it listed as removed (core/saved-plan.ts). */
  pruneOnly?: string[];
}

/** A reconcile area's mode from its input: the input stays `prune` (runs recorded before hold it). */
export const modeOf = (input: ReconcileInput): ReconcileMode => (input.prune ? (input.pruneOnly ? { only: input.pruneOnly } : 'prune') : 'correct');
