import type { Context } from 'hono';
import { requireTenantAccess } from '../auth/authorize.js';
import { actorOf } from '../auth/caller.js';
import type { AppEnv } from '../context.js';
import { notConfigured, tenantNotFound } from '../errors.js';

/**
 * The first checks of every route on a tenant's resources, in this order: the caller may manage
 * the tenant (the operator, or the tenant itself), the site has what the route needs (else 501 with
 * `unconfigured`), and the tenant is registered (else 404).
 */
export async function tenantAccess<O extends { tenantRegistered(tenant: string): Promise<boolean> }>(
  c: Context<AppEnv>,
  tenant: string,
  ops: O | undefined,
  unconfigured: string,
): Promise<{ ops: O; actor: string }> {
  const caller = requireTenantAccess(c, tenant);
  if (!ops) throw notConfigured(unconfigured);
  if (!(await ops.tenantRegistered(tenant))) throw tenantNotFound();
  return { ops, actor: actorOf(caller) };
}
