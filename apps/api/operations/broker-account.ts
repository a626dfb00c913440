import type { Client } from '@temporalio/client';
import type { Condition, RunFailure } from '../../../core/object-life.js';
import { objectPath, withCondition, withConditions } from '../conditions.js';
import { verifyBrokerPassword } from '../../../core/credentials/broker-password.js';
import type { BrokerAccountView } from '../../../core/views/broker-account.js';
import { revealBrokerAccount, viewBrokerAccount } from '../../../db/views/broker-account.js';
import { sealValue, type SealKeys } from '../../../db/seal.js';
import { getBrokerAccount, listBrokerAccounts } from '../../../db/queries/broker-accounts.js';
import { tenantExists } from '../../../db/queries/tenants.js';
import type { Registry } from '../../../db/registry.js';
import { brokerAccountDelete, brokerAccountEnsure } from '../../../workflows/index.js';
import {
  attemptBrokerAccountDelete,
  attemptBrokerAccountEnsure,
  type BrokerAccountDeleteResult,
  type BrokerAccountRequest,
  type BrokerAccountResult,
} from '../../../contracts/broker-account.js';
import { badRequest } from '../errors.js';
import { runs } from '../runs.js';
import type { LostAnswers } from '../lost-answers.js';
import { runIds } from '../../../contracts/ids.js';

/** An issue's answer with its password in clear (the workflow hands it over sealed). */
export type BrokerAccountIssue =
  | { kind: 'done'; account: BrokerAccountView }
  | { kind: 'failed'; step: 'broker'; account: BrokerAccountView; failure?: RunFailure }
  | Extract<BrokerAccountResult, { kind: 'refused' }>;

/** What the broker account routes ask of the service: issue and delete on Temporal, reads from the registry. */
export interface BrokerAccountOperations {
  ensure(req: Omit<BrokerAccountRequest, 'password'> & { password?: string }): Promise<BrokerAccountIssue>;
  delete(tenant: string, name: string): Promise<BrokerAccountDeleteResult>;
  get(tenant: string, name: string): Promise<(BrokerAccountView & { condition: Condition }) | undefined>;
  list(tenant: string): Promise<(BrokerAccountView & { condition: Condition })[]>;
  tenantRegistered(tenant: string): Promise<boolean>;
}

export function brokerAccountOperations(opts: {
  registry: Registry;
  client: Client;
  taskQueue: string;
  parkedTimeoutMs: number;
  keys: SealKeys;
  lost?: LostAnswers;
}): BrokerAccountOperations {
  const { registry, client, taskQueue, keys } = opts;
  const db = registry.db;
  const run = runs(client, taskQueue, opts.parkedTimeoutMs, opts.lost);

  return {
    async ensure(call) {
      const { password, ...rest } = call;
      // `password` only restores (spec: Broker accounts): on an account the registry holds it must
      // be the account's own password (the broker lost the client), never one the tenant chooses.
      if (password !== undefined) {
        const row = await getBrokerAccount(db, call.tenant, call.name);
        if (row && !verifyBrokerPassword(password, row.passwordHash)) {
          throw badRequest("password: not this account's; password only restores an account whose password the service or the broker lost");
        }
      }
      const req: BrokerAccountRequest = { ...rest, ...(password !== undefined ? { password: sealValue(keys, password) } : {}) };
      const input = { tenant: req.tenant, name: req.name, parkedTimeoutMs: opts.parkedTimeoutMs };
      const result = await run.attempt(
        brokerAccountEnsure,
        attemptBrokerAccountEnsure,
        {
          workflowId: runIds.brokerAccountEnsure(req.tenant, req.name),
          args: [input],
          tenant: req.tenant,
          object: `broker account ${req.name}`,
          // A repeated issue whose answer was lost gets its password; a restore is asked afresh.
          collect: password === undefined,
        },
        req,
      );
      return result.kind === 'refused' ? result : { ...result, account: revealBrokerAccount(keys, result.account) };
    },
    async delete(tenant, name) {
      const result = await run.call(
        brokerAccountDelete,
        attemptBrokerAccountDelete,
        { workflowId: runIds.brokerAccountDelete(tenant, name), tenant, object: `broker account ${name}` },
        { tenant, name },
      );
      return run.superseded(result, 'deleted', [runIds.brokerAccountEnsure(tenant, name)]);
    },
    async get(tenant, name) {
      const row = await getBrokerAccount(db, tenant, name);
      return withCondition(db, row ? viewBrokerAccount(row) : undefined, () => ({ object: objectPath.brokerAccount(tenant, name), finished: true }));
    },
    async list(tenant) {
      const rows = await listBrokerAccounts(db, tenant);
      return withConditions(
        db,
        rows.map((row) => ({ object: objectPath.brokerAccount(tenant, row.name), finished: true, view: viewBrokerAccount(row) })),
      );
    },
    tenantRegistered: (tenant) => tenantExists(db, tenant),
  };
}
