import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context.js';
import { tenantAccess } from '../tenant-access.js';

/** The caller may manage the tenant's workloads (operator or the tenant itself) and the tenant is registered. */
export const workloadAccess = (c: Context<AppEnv>, deps: AppDeps, tenant: string) => tenantAccess(c, tenant, deps.workloads, 'no site configured');
