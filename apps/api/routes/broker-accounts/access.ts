import type { Context } from 'hono';
import { tenantAccess } from '../tenant-access.js';
import type { BrokerAccountOperations } from '../../operations/broker-account.js';
import type { AppDeps, AppEnv } from '../../context.js';

export const NO_BROKER = 'no broker at this site';

/** Every broker account route: the caller's own tenant (or the operator), a broker, a registered tenant. */
export async function brokerAccess(c: Context<AppEnv>, deps: AppDeps, tenant: string): Promise<BrokerAccountOperations> {
  return (await tenantAccess(c, tenant, deps.config.site?.broker ? deps.brokerAccounts : undefined, NO_BROKER)).ops;
}
