import type { Context } from 'hono';
import { requireTenantAccess } from '../../auth/authorize.js';
import type { BrokerAccountOperations } from '../../operations/broker-account.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { notConfigured, tenantNotFound } from '../../errors.js';

export const NO_BROKER = 'no broker at this site';

/** Every broker account route: the caller's own tenant (or the operator), a broker, a registered tenant. */
export async function brokerAccess(c: Context<AppEnv>, deps: AppDeps, tenant: string): Promise<BrokerAccountOperations> {
  requireTenantAccess(c, tenant);
  const ops = deps.brokerAccounts;
  if (!ops || !deps.config.site?.broker) throw notConfigured(NO_BROKER);
  if (!(await ops.tenantRegistered(tenant))) throw tenantNotFound();
  return ops;
}
