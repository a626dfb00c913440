import type { BrokerAccountRow } from '../../db/queries/broker-accounts.js';
import { brokerUsername } from '../broker/username.js';

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
