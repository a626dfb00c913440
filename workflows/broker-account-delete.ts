import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { serveRun } from './attempts.js';
import { DEFAULT_PARKED_MS } from '../contracts/attempt.js';
import { attemptBrokerAccountDelete, type BrokerAccountDeleteRequest, type BrokerAccountDeleteResult } from '../contracts/broker-account.js';
import { runStep } from './run-step.js';
import { brokerAccountLease, underNameLease } from './tenant-lease.js';
import { deprecated } from './patches.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `broker-account-delete/<tenant>/<name>`: removes the dynsec client and role, then forgets the
 * account. The broker refuses the account's next connection; a failure leaves the row and parks
 * the run, so the repeated delete resumes it.
 */
export async function brokerAccountDelete(input: BrokerAccountDeleteRequest): Promise<BrokerAccountDeleteResult | undefined> {
  deprecated('run-model');
  return serveRun(attemptBrokerAccountDelete, (req) => underNameLease(req.tenant, brokerAccountLease(req.name), 'broker account delete', () => remove(req)), {
    kind: 'parked',
    parkedTimeoutMs: input.parkedTimeoutMs ?? DEFAULT_PARKED_MS,
    call: 'broker account delete',
  });
}

async function remove(input: BrokerAccountDeleteRequest): Promise<BrokerAccountDeleteResult> {
  const start = await registry.beginBrokerAccountDelete(input);
  if (start.kind === 'refused') return start;
  const removed = await runStep('broker.remove-account', [{ tenant: input.tenant, name: input.name }], {
    object: `broker account ${input.name} of tenant ${input.tenant}`,
  });
  return removed.ok ? { kind: 'deleted' } : { kind: 'failed', step: 'broker' };
}
