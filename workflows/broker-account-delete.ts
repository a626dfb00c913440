import { attemptBrokerAccountDelete, type BrokerAccountDeleteRequest, type BrokerAccountDeleteResult } from '../contracts/broker-account.js';
import { itsAccount, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';

/**
 * `broker-account-delete/<tenant>/<name>`: removes the dynsec client and role, then forgets the
 * account. The broker refuses the account's next connection; a failure leaves the row and parks
 * the run, so the repeated delete resumes it.
 */
export async function brokerAccountDelete(input: BrokerAccountDeleteRequest): Promise<BrokerAccountDeleteResult | undefined> {
  return objectRun({ update: attemptBrokerAccountDelete, call: 'broker account delete', hold: itsAccount, attempt: remove }, input);
}

async function remove(input: BrokerAccountDeleteRequest): Promise<BrokerAccountDeleteResult> {
  const start = await registry.beginBrokerAccountDelete(input);
  if (start.kind === 'refused') return start;
  const removed = await runStep('broker.remove-account', [{ tenant: input.tenant, name: input.name }], {
    object: `broker account ${input.name} of tenant ${input.tenant}`,
  });
  return removed.ok ? { kind: 'deleted' } : { kind: 'failed', step: 'broker' };
}
