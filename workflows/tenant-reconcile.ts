import { proxyLocalActivities } from '@temporalio/workflow';
import type { StepName } from '../core/steps.js';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import type { ReconcileResult } from './contracts/tenant.js';
import { tenantRun } from './tenant-lease.js';
import { ensureSteps } from './tenant-steps.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `tenant-reconcile/<name>`: re-ensures every backend of a tenant, one activity per step, and
 * reports, per backend object, whether it was in place, created or corrected. The answer carries
 * the log tokens and the dashboard password (sealed) and no other secret.
 */
export function tenantReconcile(input: { name: string }): Promise<ReconcileResult> {
  return tenantRun(input.name, 'reconcile', () => registry.beginReconcile(input), (start) => reconcile(input, start));
}

async function reconcile(input: { name: string }, start: { index: number; steps: StepName[] }): Promise<ReconcileResult> {
  const run = await ensureSteps({ name: input.name, index: start.index }, start.steps);
  if (!run.ok) {
    const { tenant, secrets } = await registry.failAttempt({ name: input.name, step: run.step, answer: { kind: 'reconcile' } });
    return { kind: 'failed', step: run.step, tenant, report: run.report, secrets };
  }
  const { tenant, secrets } = await registry.finishReconcile(input);
  return { kind: 'reconciled', tenant, report: run.report, secrets };
}
