import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { serveAttempts } from './attempts.js';
import { deprecated } from './patches.js';
import { DEFAULT_PARKED_MS } from '../contracts/attempt.js';
import { attemptTenantDelete, type DeleteInput, type DeleteResult } from '../contracts/tenant.js';
import { tenantRun } from './tenant-lease.js';
import { fabric, removeSteps } from './tenant-step-sequence.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `tenant-delete/<name>`: refused while the tenant has workloads or the fabric carries its zone;
 * otherwise removes the tenant's backend objects in the spec's order, one activity per step, then
 * the registry row. A failed step leaves the tenant `deleting` and parks the run; the second
 * delete resumes it, and every removal is idempotent.
 */
export async function tenantDelete(input: DeleteInput): Promise<DeleteResult | undefined> {
  const attempt = (req: DeleteInput) =>
    tenantRun(
      req.name,
      'delete',
      () => registry.beginDelete(req),
      (start) => remove(req, start.index),
    );
  deprecated('run-model');
  // tenantRun answers each attempt itself (alone on the tenant, workflows/run-step.ts `answering`).
  return serveAttempts(attemptTenantDelete, attempt, {
    kind: 'parked',
    parkedTimeoutMs: input.parkedTimeoutMs ?? DEFAULT_PARKED_MS,
    call: 'tenant delete',
  });
}

async function remove(input: { name: string; actor?: string }, index: number): Promise<DeleteResult> {
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
