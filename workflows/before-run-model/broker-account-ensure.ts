import { ApplicationFailure, proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';
import { serveAttempts } from '../attempts.js';
import { isStepFailure } from '../failures.js';
import { BROKER_ACCOUNT_LOST } from '../../core/failure-types.js';
import type { FormerActivities as Activities } from './activities.js';
import type { SealedBrokerAccount } from '../../core/views/broker-account.js';
import type { Sealed } from '../../core/sealed.js';
import { STEP } from '../../core/search-attributes.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from '../activity-options.js';
import { underLease } from '../tenant-lease.js';
import {
  attemptBrokerAccountEnsure,
  type BrokerAccountRequest,
  type BrokerAccountResult,
  type BrokerAccountWorkflowInput,
} from '../../contracts/broker-account.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `broker-account/<tenant>/<name>`: each issue call is an attempt delivered by update, so
 * concurrent calls for one account meet here. A password minted for a new account is kept in the
 * run (encrypted in history by the codec) until the broker holds it: after a failed broker step
 * the run parks, and the repeated call resumes with the same password the 502 carried. The
 * registry row is written only once the broker holds the account. The password is sealed with the
 * site's secrets key everywhere in the run (core/sealed.ts).
 */
export async function brokerAccountEnsure(input: BrokerAccountWorkflowInput): Promise<BrokerAccountResult | undefined> {
  /** A password this run minted that the broker has not confirmed yet. */
  let pending: Sealed<string> | undefined;

  async function attempt(req: BrokerAccountRequest): Promise<BrokerAccountResult> {
    const start = await registry.prepareBrokerAccount({ request: req, ...(pending !== undefined ? { pending } : {}) });
    if (start.kind === 'refused') return start;
    if (start.minted) pending = start.password;
    const withPassword = (view: SealedBrokerAccount): SealedBrokerAccount => (start.password !== undefined ? { ...view, password: start.password } : view);

    upsertSearchAttributes([{ key: STEP, value: 'broker' }]);
    try {
      await steps.ensureBrokerAccount({
        tenant: req.tenant,
        name: req.name,
        publish: req.publish,
        subscribe: req.subscribe,
        ...(start.password !== undefined ? { password: start.password } : {}),
      });
    } catch (err) {
      if (!isStepFailure(err)) throw err;
      if (err.cause instanceof ApplicationFailure && err.cause.type === BROKER_ACCOUNT_LOST) {
        return { kind: 'refused', error: 'conflict', message: `the broker no longer holds account "${req.name}"; send its password to restore it` };
      }
      return { kind: 'failed', step: 'broker', account: withPassword(start.view) };
    }
    const saved = await registry.saveBrokerAccount({ request: req, ...(start.password !== undefined ? { password: start.password } : {}) });
    pending = undefined;
    upsertSearchAttributes([{ key: STEP, value: 'done' }]);
    if (!saved) return { kind: 'refused', error: 'not_found', message: 'broker account not found' };
    return { kind: 'done', account: withPassword(saved) };
  }

  const held = (req: BrokerAccountRequest) => underLease(req.tenant, 'shared', 'broker account issue', () => attempt(req));
  return serveAttempts(attemptBrokerAccountEnsure, held, {
    kind: 'parked',
    parkedTimeoutMs: input.parkedTimeoutMs,
    call: 'broker account issue',
    failedStep: (r) => (r.kind === 'failed' ? r.step : undefined),
  });
}
