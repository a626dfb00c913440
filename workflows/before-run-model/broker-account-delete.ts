import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { isStepFailure } from '../failures.js';
import type { FormerActivities as Activities } from './activities.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from '../activity-options.js';
import { underLease } from '../tenant-lease.js';
import type { BrokerAccountDeleteResult } from '../../contracts/broker-account.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `broker-account-delete/<tenant>/<name>`: removes the dynsec client and role, then forgets the
 * account. The broker refuses the account's next connection; a failure leaves the row, so a
 * repeated delete resumes.
 */
export function brokerAccountDelete(input: { tenant: string; name: string }): Promise<BrokerAccountDeleteResult> {
  return underLease(input.tenant, 'shared', 'broker account delete', () => remove(input));
}

async function remove(input: { tenant: string; name: string }): Promise<BrokerAccountDeleteResult> {
  const start = await registry.beginBrokerAccountDelete(input);
  if (start.kind === 'refused') return start;
  try {
    await steps.removeBrokerAccount(input);
  } catch (err) {
    if (isStepFailure(err)) return { kind: 'failed', step: 'broker' };
    throw err;
  }
  return { kind: 'deleted' };
}
