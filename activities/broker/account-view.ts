import type { BrokerAccountRow } from '../../db/queries/broker-accounts.js';
import type { Sealed } from '../../core/sealed.js';
import { openValue, type SealKeys } from '../../db/seal.js';
import { brokerUsername } from './username.js';

/**
 * A broker account on the wire. Patterns are absolute (`<tenant>/...`), as the broker enforces
 * them. `password` only in the answer of a call that minted or was given one (and the 502 body).
 */
export interface BrokerAccountView {
  name: string;
  username: string;
  device?: string;
  publish: string[];
  subscribe: string[];
  password?: string;
  created_at: string;
  updated_at: string;
}

/** An account as it crosses Temporal: its password, when the answer carries one, sealed (core/sealed.ts). */
export type SealedBrokerAccount = Omit<BrokerAccountView, 'password'> & { password?: Sealed<string> };

/** The account as the API answers it: the password opened. */
export function revealBrokerAccount(keys: SealKeys, account: SealedBrokerAccount): BrokerAccountView {
  const { password, ...view } = account;
  const clear = openValue(keys, password);
  return { ...view, ...(clear !== undefined ? { password: clear } : {}) };
}

export function viewBrokerAccount(row: Pick<BrokerAccountRow, 'tenant' | 'name' | 'device' | 'publish' | 'subscribe' | 'createdAt' | 'updatedAt'>): BrokerAccountView {
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
