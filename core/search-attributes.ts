import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Engineers filter runs in the Temporal UI and CLI by tenant, operation, the step a run is at
 * (running, or parked after it failed), every step that ever failed in the run (kept after a
 * resume), and how the run answered (`refused` tells a 409 apart from a success).
 */
export const TENANT_NAME = defineSearchAttributeKey('TenantName', SearchAttributeType.KEYWORD);
export const OPERATION = defineSearchAttributeKey('Operation', SearchAttributeType.KEYWORD);
export const STEP = defineSearchAttributeKey('Step', SearchAttributeType.KEYWORD);
export const FAILED_STEPS = defineSearchAttributeKey('FailedSteps', SearchAttributeType.KEYWORD_LIST);
export const OUTCOME = defineSearchAttributeKey('Outcome', SearchAttributeType.KEYWORD);

/**
 * A run's `Operation`: its workflow's name in kebab case (`tenant-create`, `wifi-key-issue`), the
 * one rule for every run, so `Operation='tenant-create'` finds what `WorkflowType='tenantCreate'` does.
 */
export function operationOf(workflowType: string): string {
  return workflowType.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export const SEARCH_ATTRIBUTES = [TENANT_NAME, OPERATION, STEP, FAILED_STEPS, OUTCOME] as const;
