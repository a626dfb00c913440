import type { Hono } from 'hono';
import { mountTable, type TableRow } from '../routes.js';
import type { ProxmoxSimState } from './state.js';
import type { TaskRunner } from './tasks.js';
import { commitSdn, listAllFabrics, listControllers, lockSdn, rollbackSdn, sdnIndex, unlockSdn, zoneContent } from './sdn/cluster.js';
import type { ReleaseFeatures } from './release.js';
import { requireSdnPrivilege } from './access.js';
import { sdnContext, type Sdn } from './sdn/context.js';
import { createSubnet, deleteSubnet, listSubnets, readSubnet, updateSubnet } from './sdn/subnets.js';
import { createVnet, deleteVnet, listVnets, readVnet, updateVnet } from './sdn/vnets.js';
import { createZone, deleteZone, listZones, readZone, updateZone } from './sdn/zones.js';

/**
 * `/cluster/sdn` of pve-network (API2/Network/SDN*.pm): writes change the edited configuration
 * only; `PUT /cluster/sdn` commits it to the running one and starts a `reloadnetworkall` task.
 * Reads return the edited configuration, `?running=1` the applied one, `?pending=1` the merge.
 */
const SDN_ROUTES: TableRow<Sdn>[] = [
  ['get', '/cluster/sdn', sdnIndex],
  ['put', '/cluster/sdn', commitSdn],
  ['post', '/cluster/sdn/lock', lockSdn],
  ['delete', '/cluster/sdn/lock', unlockSdn],
  ['post', '/cluster/sdn/rollback', rollbackSdn],
  ['get', '/nodes/:node/sdn/zones/:zone/content', zoneContent],
  ['get', '/cluster/sdn/controllers', listControllers],
  ['get', '/cluster/sdn/fabrics/all', listAllFabrics],
  ['get', '/cluster/sdn/zones', listZones],
  ['get', '/cluster/sdn/zones/:zone', readZone],
  ['post', '/cluster/sdn/zones', createZone],
  ['put', '/cluster/sdn/zones/:zone', updateZone],
  ['delete', '/cluster/sdn/zones/:zone', deleteZone],
  ['get', '/cluster/sdn/vnets', listVnets],
  ['get', '/cluster/sdn/vnets/:vnet', readVnet],
  ['post', '/cluster/sdn/vnets', createVnet],
  ['put', '/cluster/sdn/vnets/:vnet', updateVnet],
  ['delete', '/cluster/sdn/vnets/:vnet', deleteVnet],
  ['get', '/cluster/sdn/vnets/:vnet/subnets', listSubnets],
  ['get', '/cluster/sdn/vnets/:vnet/subnets/:subnet', readSubnet],
  ['post', '/cluster/sdn/vnets/:vnet/subnets', createSubnet],
  ['put', '/cluster/sdn/vnets/:vnet/subnets/:subnet', updateSubnet],
  ['delete', '/cluster/sdn/vnets/:vnet/subnets/:subnet', deleteSubnet],
];

/** Routes a release without them does not serve (PVE 8: no lock, no rollback, no fabrics): 501 there. */
const PVE9_ROUTES = new Set(['/cluster/sdn/lock', '/cluster/sdn/rollback', '/cluster/sdn/fabrics/all']);

export function mountSdnRoutes(api: Hono, state: ProxmoxSimState, tasks: TaskRunner, user: string, features: ReleaseFeatures): void {
  const sdn = sdnContext(state, tasks, user, features);
  const served = SDN_ROUTES.filter(([, path]) => features.sdnLock || !PVE9_ROUTES.has(path));
  mountTable(
    api,
    served.map(([method, path, handler]): TableRow<Sdn> => [
      method,
      path,
      (c, x) => {
        requireSdnPrivilege(state, c.req.method);
        return handler(c, x);
      },
    ]),
    sdn,
  );
}
