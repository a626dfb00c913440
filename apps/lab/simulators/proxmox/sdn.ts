import type { Hono } from 'hono';
import type { ProxmoxSimState } from './state.js';
import type { TaskRunner } from './tasks.js';
import { commitSdn, listControllers, lockSdn, sdnIndex, unlockSdn, zoneContent } from './sdn/cluster.js';
import { sdnContext, type SdnHandler } from './sdn/context.js';
import { createSubnet, deleteSubnet, listSubnets, readSubnet, updateSubnet } from './sdn/subnets.js';
import { createVnet, deleteVnet, listVnets, readVnet, updateVnet } from './sdn/vnets.js';
import { createZone, deleteZone, listZones, readZone, updateZone } from './sdn/zones.js';

/**
 * `/cluster/sdn` of pve-network (API2/Network/SDN*.pm): writes change the edited configuration
 * only; `PUT /cluster/sdn` commits it to the running one and starts a `reloadnetworkall` task.
 * Reads return the edited configuration, `?running=1` the applied one, `?pending=1` the merge.
 */
const SDN_ROUTES: [method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, handler: SdnHandler][] = [
  ['GET', '/cluster/sdn', sdnIndex],
  ['PUT', '/cluster/sdn', commitSdn],
  ['POST', '/cluster/sdn/lock', lockSdn],
  ['DELETE', '/cluster/sdn/lock', unlockSdn],
  ['GET', '/nodes/:node/sdn/zones/:zone/content', zoneContent],
  ['GET', '/cluster/sdn/controllers', listControllers],
  ['GET', '/cluster/sdn/zones', listZones],
  ['GET', '/cluster/sdn/zones/:zone', readZone],
  ['POST', '/cluster/sdn/zones', createZone],
  ['PUT', '/cluster/sdn/zones/:zone', updateZone],
  ['DELETE', '/cluster/sdn/zones/:zone', deleteZone],
  ['GET', '/cluster/sdn/vnets', listVnets],
  ['GET', '/cluster/sdn/vnets/:vnet', readVnet],
  ['POST', '/cluster/sdn/vnets', createVnet],
  ['PUT', '/cluster/sdn/vnets/:vnet', updateVnet],
  ['DELETE', '/cluster/sdn/vnets/:vnet', deleteVnet],
  ['GET', '/cluster/sdn/vnets/:vnet/subnets', listSubnets],
  ['GET', '/cluster/sdn/vnets/:vnet/subnets/:subnet', readSubnet],
  ['POST', '/cluster/sdn/vnets/:vnet/subnets', createSubnet],
  ['PUT', '/cluster/sdn/vnets/:vnet/subnets/:subnet', updateSubnet],
  ['DELETE', '/cluster/sdn/vnets/:vnet/subnets/:subnet', deleteSubnet],
];

export function mountSdnRoutes(api: Hono, state: ProxmoxSimState, tasks: TaskRunner, user: string): void {
  const sdn = sdnContext(state, tasks, user);
  for (const [method, path, handler] of SDN_ROUTES) api.on(method, path, (c) => handler(c, sdn));
}
