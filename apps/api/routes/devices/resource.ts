import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context.js';
import type { DeviceOperations } from '../../operations/device.js';
import { DeviceParam } from '../../schemas/device.js';
import { resource, type Access } from '../shapes.js';
import { tenantAccess } from '../tenant-access.js';

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
export async function deviceAccess(c: Context<AppEnv>, deps: AppDeps, tenant: string, area: DeviceArea): Promise<Access<DeviceOperations>> {
  const site = deps.config.site;
  const missing =
    !site || !deps.devices
      ? 'no site configured'
      : area === 'dhcp' && !site.dhcp
        ? UNCONFIGURED.dhcp
        : area === 'wifi' && !site.wifi
          ? UNCONFIGURED.wifi
          : undefined;
  return tenantAccess(c, tenant, missing ? undefined : deps.devices, missing ?? '');
}

/** The device registry's routes: they need no backend. */
export const devices = resource({
  tag: 'devices',
  item: '/v1/tenants/{t}/devices/{device}',
  params: DeviceParam,
  access: (c, deps, t) => deviceAccess(c, deps, t, 'registry'),
});
