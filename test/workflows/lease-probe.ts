/**
 * The production workflows and one more, for test/workflows/leases.test.ts: `leaseProbe` takes a
 * tenant's lease through the production `underLease` with a wait bound of seconds (the service's
 * is two minutes, which a dev server without time skipping would wait out for real).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { underLease, type LeaseMode } from '../../workflows/tenant-lease.js';

export * from '../../workflows/index.js';

const acts = proxyActivities<Activities>({ startToCloseTimeout: '10s' });

export function leaseProbe(input: { tenant: string; mode: LeaseMode; waitMs: number }) {
  return underLease(
    input.tenant,
    input.mode,
    'lease probe',
    async () => {
      await acts['dns.ensure']({ name: input.tenant, index: 1 });
      return { kind: 'done' as const };
    },
    input.waitMs,
  );
}
