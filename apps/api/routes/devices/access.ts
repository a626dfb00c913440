import type { Context } from 'hono';
import { actorOf } from '../../auth/caller.js';
import { requireTenantAccess } from '../../auth/authorize.js';
import type { AppDeps, AppEnv } from '../../context.js';
import type { DeviceOperations } from '../../operations/device.js';
import { notConfigured, tenantNotFound } from '../../errors.js';

/** Which optional backend a route needs: its routes refuse with a reason at a site without it. */
export type DeviceArea = 'registry' | 'dhcp' | 'wifi';

const UNCONFIGURED: Record<Exclude<DeviceArea, 'registry'>, string> = {
  dhcp: 'no device address ranges at this site (no DHCP server configured)',
  wifi: 'no wireless controller at this site',
};

/**
 * The caller may manage the tenant's devices, addresses and keys (operator or the tenant itself),
 * the site has the backend the route needs, and the tenant is registered.
 */
export async function deviceAccess(c: Context<AppEnv>, deps: AppDeps, tenant: string, area: DeviceArea): Promise<{ ops: DeviceOperations; actor: string }> {
  const caller = requireTenantAccess(c, tenant);
  const site = deps.config.site;
  const ops = deps.devices;
  if (!site || !ops) throw notConfigured('no site configured');
  if (area === 'dhcp' && !site.dhcp) throw notConfigured(UNCONFIGURED.dhcp);
  if (area === 'wifi' && !site.wifi) throw notConfigured(UNCONFIGURED.wifi);
  if (!(await ops.tenantRegistered(tenant))) throw tenantNotFound();
  return { ops, actor: actorOf(caller) };
}
