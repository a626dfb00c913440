import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Engineers filter runs in the Temporal UI by tenant, operation and the step a run is at. */
export const TENANT_NAME = defineSearchAttributeKey('TenantName', SearchAttributeType.KEYWORD);
export const OPERATION = defineSearchAttributeKey('Operation', SearchAttributeType.KEYWORD);
export const STEP = defineSearchAttributeKey('Step', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [TENANT_NAME, OPERATION, STEP] as const;
