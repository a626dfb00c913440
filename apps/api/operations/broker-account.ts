import type { Client } from '@temporalio/client';
import type { RunFailure } from '../../../core/object-life.js';
import { objectPath } from '../conditions.js';
import { verifyBrokerPassword } from '../../../core/credentials/broker-password.js';
import type { BrokerAccountView } from '../../../core/views/broker-account.js';
import { revealBrokerAccount, viewBrokerAccount } from '../../../db/views/broker-account.js';
import { sealValue, type SealKeys } from '../../../db/seal.js';
import { getBrokerAccount, listBrokerAccounts } from '../../../db/queries/broker-accounts.js';
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
import { objectOperations } from './object-operations.js';
import type { ObjectReads } from './object-reads.js';

/** An issue's answer with its password in clear (the workflow hands it over sealed). */
export type BrokerAccountIssue =
  | { kind: 'done'; account: BrokerAccountView }
  | { kind: 'failed'; step: 'broker'; account: BrokerAccountView; failure?: RunFailure }
  | Extract<BrokerAccountResult, { kind: 'refused' }>;

/** What the broker account routes ask of the service: issue and delete on Temporal, reads from the registry. */
export interface BrokerAccountOperations extends ObjectReads<BrokerAccountView> {
  ensure(req: Omit<BrokerAccountRequest, 'password'> & { password?: string }): Promise<BrokerAccountIssue>;
  delete(tenant: string, name: string): Promise<BrokerAccountDeleteResult>;
}

export function brokerAccountOperations(opts: {
  registry: Registry;
  client: Client;
  taskQueue: string;
  parkedTimeoutMs: number;
  keys: SealKeys;
  lost?: LostAnswers;
}): BrokerAccountOperations {
  const { registry, keys, parkedTimeoutMs } = opts;
  const db = registry.db;
  const { write, remove, ...reads } = objectOperations(
    { db, run: runs(opts.client, opts.taskQueue, parkedTimeoutMs, opts.lost), parkedTimeoutMs },
    {
      noun: 'broker account',
      reads: { get: getBrokerAccount, list: listBrokerAccounts, view: viewBrokerAccount, path: objectPath.brokerAccount, finished: () => true },
      write: { workflow: brokerAccountEnsure, update: attemptBrokerAccountEnsure, id: runIds.brokerAccountEnsure },
      remove: { workflow: brokerAccountDelete, update: attemptBrokerAccountDelete, id: runIds.brokerAccountDelete },
    },
  );

  return {
    ...reads,
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
      // A repeated issue whose answer was lost gets its password; a restore is asked afresh.
      const result = await write(req, { collect: password === undefined });
      return result.kind === 'refused' ? result : { ...result, account: revealBrokerAccount(keys, result.account) };
    },
    delete: (tenant, name) => remove({ tenant, name }),
  };
}
