import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import type { DeleteResult } from './contracts/tenant.js';
import { tenantRun } from './tenant-lease.js';
import { fabric, removeSteps } from './tenant-steps.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `tenant-delete/<name>`: refused while the tenant has workloads or the fabric carries its zone;
 * otherwise removes the tenant's backend objects in the spec's order, one activity per step, then
 * the registry row. A failed step leaves the tenant `deleting`; a second delete runs again and
 * every removal is idempotent, so it resumes where the first stopped.
 */
export function tenantDelete(input: { name: string }): Promise<DeleteResult> {
  return tenantRun(input.name, 'delete', () => registry.beginDelete(input), (start) => remove(input, start.index));
}

async function remove(input: { name: string }, index: number): Promise<DeleteResult> {
  const zone = await fabric.hasZone(input.name);
  if (!zone.ok) return { kind: 'failed', step: 'network' };
  if (zone.value) return { kind: 'refused', error: 'conflict', message: 'the fabric still carries the tenant zone; remove it in the fabric first' };
  const plan = await registry.markDeleting(input);
  if (plan.kind === 'refused') return plan;
  const failed = await removeSteps({ name: input.name, index }, plan.steps);
  if (failed) return { kind: 'failed', step: failed };
  await registry.forgetTenant(input);
  return { kind: 'deleted' };
}
