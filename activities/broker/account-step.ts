import { ApplicationFailure } from '@temporalio/activity';
import { asBackendStep } from '../step-failure.js';
import type { ActivityDeps } from '../deps.js';

export const BROKER_STEP = 'broker';

/**
 * Runs a piece of broker work as the `broker` step: heartbeats while it runs, logs a failure with
 * its detail (which may name the broker's host) and leaves as an ApplicationFailure naming only
 * the step. A broker refusing on purpose is not retried. Unlike the tenant steps it records no
 * step row: broker accounts are not steps of the tenant.
 */
export function runBrokerStep<T>(deps: ActivityDeps, tenant: string, account: string, work: () => Promise<T>): Promise<T> {
  return asBackendStep(deps.log, BROKER_STEP, { tenant, account }, work);
}

/** The broker adapter, or a refusal: a worker at a site with no broker cannot run broker work. */
export function brokerOf(deps: ActivityDeps) {
  const broker = deps.ports.broker;
  if (!broker)
    throw ApplicationFailure.create({ message: `backend step "${BROKER_STEP}" failed: no broker at this site`, type: 'BackendRefused', nonRetryable: true });
  return broker;
}
