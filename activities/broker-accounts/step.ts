import { ApplicationFailure, Context } from '@temporalio/activity';
import { BackendError } from '../ensure.js';
import type { TenantActivityDeps } from '../tenant/deps.js';

export const BROKER_STEP = 'broker';

/**
 * Runs a piece of broker work as the `broker` step: heartbeats while it runs, logs a failure with
 * its detail (which may name the broker's host) and leaves as an ApplicationFailure naming only
 * the step. A broker refusing on purpose is not retried. Unlike the tenant steps it records no
 * step row: broker accounts are not steps of the tenant.
 */
export async function runBrokerStep<T>(deps: TenantActivityDeps, tenant: string, account: string, work: () => Promise<T>): Promise<T> {
  const beat = setInterval(() => {
    try {
      Context.current().heartbeat();
    } catch {}
  }, 1000);
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApplicationFailure) throw err;
    deps.log.error({ tenant, account, step: BROKER_STEP, err: err instanceof BackendError ? err.detail : String(err) }, 'backend step failed');
    const retryable = !(err instanceof BackendError) || err.retryable;
    throw ApplicationFailure.create({
      message: `backend step "${BROKER_STEP}" failed`,
      type: retryable ? 'BackendFailed' : 'BackendRefused',
      nonRetryable: !retryable,
    });
  } finally {
    clearInterval(beat);
  }
}

/** The broker adapter, or a refusal: a worker at a site with no broker cannot run broker work. */
export function brokerOf(deps: TenantActivityDeps) {
  const broker = deps.ports.broker;
  if (!broker) throw ApplicationFailure.create({ message: `backend step "${BROKER_STEP}" failed: no broker at this site`, type: 'BackendRefused', nonRetryable: true });
  return broker;
}
