import { ApplicationFailure } from '@temporalio/activity';
import { deleteBrokerAccount, getBrokerAccount, saveBrokerAccount } from '../../db/queries/broker-accounts.js';
import { getTenantRow } from '../../db/queries/tenants.js';
import { BROKER_ACCOUNT_LOST } from '../../core/failure-types.js';
import type { BrokerAccountRequest } from '../../contracts/broker-account.js';
import type { Refusal } from '../../contracts/tenant.js';
import { brokerUsername } from '../../core/names/broker-username.js';
import type { ActivityDeps } from '../deps.js';
import { hashBrokerPassword, mintBrokerPassword } from '../../core/credentials/broker-password.js';
import { brokerOf, runBrokerStep } from './account-step.js';
import { reconcileTenantBrokerAccounts } from './reconcile.js';
import type { ObjectOutcome } from '../../core/backend-outcome.js';
import { modeOf, type ReconcileInput, type StepInput } from '../step-input.js';
import type { Sealed } from '../../core/sealed.js';
import { openValue, sealValue } from '../../db/seal.js';
import type { BrokerAccountView, SealedBrokerAccount } from '../../core/views/broker-account.js';
import { viewBrokerAccount } from '../../db/views/broker-account.js';

export type BrokerAccountStart =
  | {
      kind: 'proceed';
      /** Minted by this call, given by the caller, or minted earlier in this run and not yet confirmed. */
      password?: Sealed<string>;
      minted: boolean;
      /** The account as asked, without password: the partial object of a 502. */
      view: SealedBrokerAccount;
    }
  | Refusal;

const refuse = (error: Refusal['error'], message: string): Refusal => ({ kind: 'refused', error, message });

export function brokerAccountActivities(deps: ActivityDeps) {
  const { db, keys } = deps;

  return {
    /**
     * Registry side of an issue call, before the broker is touched: decides the password. A new
     * account gets a fresh one, minted here (never in workflow code) so that a failed broker step
     * can still hand it to the caller; a repeated issue keeps the stored one and answers none.
     */
    async prepareBrokerAccount(input: { request: BrokerAccountRequest; pending?: Sealed<string> }): Promise<BrokerAccountStart> {
      return prepareBrokerAccount(deps, input);
    },

    /**
     * The broker step: the dynsec client and role made to match exactly. Without a password the
     * broker's one is left alone; if the broker no longer holds the client at all, that would make
     * a client nobody can log in as, so the call is refused and the tenant restores its password.
     */
    async 'broker.ensure-account'(input: EnsureAccountInput): Promise<void> {
      await ensureAccount(deps, input);
    },

    async 'broker.reconcile-accounts'(input: ReconcileInput): Promise<ObjectOutcome[]> {
      return reconcileTenantBrokerAccounts(deps, input.name, modeOf(input));
    },

    /** What `broker.reconcile-accounts` would do, from one message to the broker: nothing is written. */
    async 'broker.plan-accounts'(input: StepInput): Promise<ObjectOutcome[]> {
      return reconcileTenantBrokerAccounts(deps, input.name, 'plan');
    },

    /** Records the account once the broker holds it; only a hash of a new password is kept. */
    async saveBrokerAccount(input: { request: BrokerAccountRequest; password?: Sealed<string> }): Promise<BrokerAccountView | undefined> {
      const req = input.request;
      const password = openValue(keys, input.password);
      const row = await saveBrokerAccount(
        db,
        { tenant: req.tenant, name: req.name, device: req.device ?? null, publish: req.publish, subscribe: req.subscribe },
        password !== undefined ? hashBrokerPassword(password) : undefined,
      );
      return row ? viewBrokerAccount(row) : undefined;
    },

    async beginBrokerAccountDelete(input: { tenant: string; name: string }): Promise<{ kind: 'proceed' } | Refusal> {
      if (!(await getTenantRow(db, input.tenant))) return refuse('not_found', 'tenant not found');
      if (!(await getBrokerAccount(db, input.tenant, input.name))) return refuse('not_found', 'broker account not found');
      return { kind: 'proceed' };
    },

    /** Client, then role, then the registry row: a failure leaves the row, so the repeat finds it. */
    async 'broker.remove-account'(input: { tenant: string; name: string }): Promise<void> {
      await runBrokerStep(deps, input.tenant, input.name, () => brokerOf(deps).remove(brokerUsername(input.tenant, input.name)));
      await deleteBrokerAccount(db, input.tenant, input.name);
    },
  };
}

/** Registry side of an issue call (see prepareBrokerAccount above). */
async function prepareBrokerAccount(deps: ActivityDeps, input: { request: BrokerAccountRequest; pending?: Sealed<string> }): Promise<BrokerAccountStart> {
  const { db, keys } = deps;
  const { request: req } = input;
  const tenant = await getTenantRow(db, req.tenant);
  if (!tenant) return refuse('not_found', 'tenant not found');
  if (tenant.status === 'deleting') return refuse('conflict', 'tenant is being deleted');
  const row = await getBrokerAccount(db, req.tenant, req.name);
  const minted = req.password === undefined && input.pending === undefined && !row;
  const password = req.password ?? input.pending ?? (row ? undefined : sealValue(keys, mintBrokerPassword()));
  const now = new Date();
  return {
    kind: 'proceed',
    ...(password !== undefined ? { password } : {}),
    minted,
    view: viewBrokerAccount({
      tenant: req.tenant,
      name: req.name,
      device: req.device ?? null,
      publish: req.publish,
      subscribe: req.subscribe,
      createdAt: row?.createdAt ?? now,
      updatedAt: now,
    }),
  };
}

type EnsureAccountInput = { tenant: string; name: string; publish: string[]; subscribe: string[]; password?: Sealed<string> };

/** The broker step (see 'broker.ensure-account' above). */
async function ensureAccount(deps: ActivityDeps, input: EnsureAccountInput): Promise<void> {
  const username = brokerUsername(input.tenant, input.name);
  const password = openValue(deps.keys, input.password);
  await runBrokerStep(deps, input.tenant, input.name, async () => {
    const broker = brokerOf(deps);
    if (password === undefined) {
      const seen = await broker.observe(username);
      if (!seen?.client) {
        throw ApplicationFailure.create({
          message: `the broker no longer holds account "${input.name}"; send its password to restore it`,
          type: BROKER_ACCOUNT_LOST,
          nonRetryable: true,
        });
      }
    }
    const outcomes = await broker.ensure({ username, password, publish: input.publish, subscribe: input.subscribe });
    const changed = outcomes.filter((o) => o.result !== 'in-place');
    deps.log.info({ tenant: input.tenant, account: input.name, changed }, changed.length ? 'broker account corrected' : 'broker account in place');
  });
}
