import { brokerUsername } from '../../core/names/broker-username.js';
import type { BrokerAccountView, SealedBrokerAccount } from '../../core/views/broker-account.js';
import type { BrokerAccountRow } from '../queries/broker-accounts.js';
import { openValue, type SealKeys } from '../seal.js';

/** The account as the API answers it: the password opened. */
export function revealBrokerAccount(keys: SealKeys, account: SealedBrokerAccount): BrokerAccountView {
  const { password, ...view } = account;
  const clear = openValue(keys, password);
  return { ...view, ...(clear !== undefined ? { password: clear } : {}) };
}

export function viewBrokerAccount(
  row: Pick<BrokerAccountRow, 'tenant' | 'name' | 'device' | 'publish' | 'subscribe' | 'createdAt' | 'updatedAt'>,
): BrokerAccountView {
  return {
    name: row.name,
    username: brokerUsername(row.tenant, row.name),
    ...(row.device !== null ? { device: row.device } : {}),
    publish: row.publish,
    subscribe: row.subscribe,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
