import type { SealedBrokerAccount } from '../core/views/broker-account.js';
import { BROKER_ACCOUNT_LOST } from '../core/failure-types.js';
import type { Sealed } from '../core/sealed.js';
import {
  attemptBrokerAccountEnsure,
  type BrokerAccountRequest,
  type BrokerAccountResult,
  type BrokerAccountWorkflowInput,
} from '../contracts/broker-account.js';
import { itsAccount, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';

/**
 * `broker-account/<tenant>/<name>`: each issue call is an attempt delivered by update, so
 * concurrent calls for one account meet here. A password minted for a new account is kept in the
 * run (sealed with the site's secrets key, core/sealed.ts, besides the codec) until the broker
 * holds it: after a failed broker step the run parks, and the repeated call resumes with the same
 * password the 502 carried. The registry row is written only once the broker holds the account.
 * The account is held alone (the tenant shared): an issue and a delete of one account never
 * interleave (issue 27).
 */
export async function brokerAccountEnsure(input: BrokerAccountWorkflowInput): Promise<BrokerAccountResult | undefined> {
  return objectRun(
    {
      update: attemptBrokerAccountEnsure,
      call: 'broker account issue',
      hold: itsAccount,
      done: 'ensured',
      attempt: issuing(),
    },
    input,
  );
}

/** The attempts of one run: a password it minted that the broker has not confirmed yet is kept between them. */
function issuing(): (req: BrokerAccountRequest) => Promise<BrokerAccountResult> {
  let pending: Sealed<string> | undefined;

  return async (req) => {
    const start = await registry.prepareBrokerAccount({ request: req, ...(pending !== undefined ? { pending } : {}) });
    if (start.kind === 'refused') return start;
    if (start.minted) pending = start.password;
    const withPassword = (view: SealedBrokerAccount): SealedBrokerAccount => (start.password !== undefined ? { ...view, password: start.password } : view);

    const ensured = await runStep(
      'broker.ensure-account',
      [
        {
          tenant: req.tenant,
          name: req.name,
          publish: req.publish,
          subscribe: req.subscribe,
          ...(start.password !== undefined ? { password: start.password } : {}),
        },
      ],
      { object: `broker account ${req.name} of tenant ${req.tenant}`, refusals: [BROKER_ACCOUNT_LOST] },
    );
    if (!ensured.ok) {
      if (ensured.refused) {
        return { kind: 'refused', error: 'conflict', message: `the broker no longer holds account "${req.name}"; send its password to restore it` };
      }
      return { kind: 'failed', step: 'broker', account: withPassword(start.view) };
    }
    const saved = await registry.saveBrokerAccount({ request: req, ...(start.password !== undefined ? { password: start.password } : {}) });
    pending = undefined;
    if (!saved) return { kind: 'refused', error: 'not_found', message: 'broker account not found' };
    return { kind: 'done', account: withPassword(saved) };
  };
}
