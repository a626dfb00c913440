import type { Context } from 'hono';
import { requireTenantAccess } from '../../auth/authorize.js';
import type { CertificateOperations } from '../../operations/certificate.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { notConfigured, tenantNotFound } from '../../errors.js';

export const NO_CA = 'no tenant service CA at this site';

/** Every certificate route: the caller's own tenant (or the operator), a CA, a registered tenant. */
export async function certificateAccess(c: Context<AppEnv>, deps: AppDeps, tenant: string): Promise<CertificateOperations> {
  requireTenantAccess(c, tenant);
  const ops = deps.certificates;
  if (!ops) throw notConfigured(NO_CA);
  if (!(await ops.tenantRegistered(tenant))) throw tenantNotFound();
  return ops;
}
