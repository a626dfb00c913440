import { proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { isStepFailure } from './failures.js';
import type { Activities } from '../activities/index.js';
import { STEP } from '../temporal/search-attributes.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from './activity-options.js';
import type { DeleteResult } from './shared.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `tenant-delete/<name>`: removes the tenant's backend objects in the spec's order, then the
 * registry row. A failed step leaves the tenant `deleting`; a second delete runs again and every
 * removal is idempotent, so it resumes where the first stopped.
 */
export async function tenantDelete(input: { name: string }): Promise<DeleteResult> {
  const start = await registry.beginDelete(input);
  if (start.kind === 'refused') return start;
  for (const step of start.steps) {
    upsertSearchAttributes([{ key: STEP, value: step }]);
    try {
      await steps.removeFromBackend({ name: input.name, index: start.index, step });
    } catch (err) {
      if (isStepFailure(err)) return { kind: 'failed', step };
      throw err;
    }
  }
  await registry.forgetTenant(input);
  upsertSearchAttributes([{ key: STEP, value: 'done' }]);
  return { kind: 'deleted' };
}
