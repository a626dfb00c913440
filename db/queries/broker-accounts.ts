import type { Db } from '../registry.js';
import { namedRows } from './named-rows.js';
import { brokerAccounts } from '../schema/index.js';

export type BrokerAccountRow = typeof brokerAccounts.$inferSelect;

const rows = namedRows(brokerAccounts, brokerAccounts.name);
const key = rows.key;
export const getBrokerAccount = rows.get;
export const listBrokerAccounts = rows.list;

export interface BrokerAccountWrite {
  tenant: string;
  name: string;
  device: string | null;
  publish: string[];
  subscribe: string[];
}

/**
 * Records an account the broker now holds. With a hash (a password this call minted or was
 * given) the stored hash is replaced; without one the row must exist and keeps its hash.
 * Undefined when there was no row to update (the account was deleted meanwhile).
 */
export async function saveBrokerAccount(db: Db, account: BrokerAccountWrite, passwordHash?: string): Promise<BrokerAccountRow | undefined> {
  const now = new Date();
  const fields = { device: account.device, publish: account.publish, subscribe: account.subscribe, updatedAt: now };
  if (passwordHash === undefined) {
    const [row] = await db.update(brokerAccounts).set(fields).where(key(account.tenant, account.name)).returning();
    return row;
  }
  const [row] = await db
    .insert(brokerAccounts)
    .values({ ...account, passwordHash, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [brokerAccounts.tenant, brokerAccounts.name], set: { ...fields, passwordHash } })
    .returning();
  return row;
}

export async function deleteBrokerAccount(db: Db, tenant: string, name: string): Promise<void> {
  await db.delete(brokerAccounts).where(key(tenant, name));
}
