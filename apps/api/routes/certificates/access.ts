import type { Context } from 'hono';
import { tenantAccess } from '../tenant-access.js';
import type { CertificateOperations } from '../../operations/certificate.js';
import type { AppDeps, AppEnv } from '../../context.js';

export const NO_CA = 'no tenant service CA at this site';

/** Every certificate route: the caller's own tenant (or the operator), a CA, a registered tenant. */
export async function certificateAccess(c: Context<AppEnv>, deps: AppDeps, tenant: string): Promise<CertificateOperations> {
  return (await tenantAccess(c, tenant, deps.certificates, NO_CA)).ops;
}
