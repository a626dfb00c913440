import { createProxmoxNetworkAdapter, type NetworkAdapter } from '../../backends/proxmox/sdn.js';
import { createProxmoxSimulator, type ProxmoxSimulator, type ProxmoxSimulatorOptions } from '../../apps/lab/simulators/proxmox/index.js';

type NetworkOptions = Parameters<typeof createProxmoxNetworkAdapter>[0];

/** The network adapter the way the lab's Proxmox simulator is set up (its controller and node), for tests that talk to it directly. */
export function labNetworkAdapter(
  apiUrl: string,
  token: { id: string; secret: string },
  bases: { vrfVniBase: number; vnetVniBase: number },
  over: Partial<NetworkOptions> = {},
): NetworkAdapter {
  return createProxmoxNetworkAdapter({
    apiUrl,
    tokenId: token.id,
    tokenSecret: token.secret,
    controller: 'evpnctl',
    node: 'pve1',
    taskTimeoutMs: 2_000,
    vrfVniBase: bases.vrfVniBase,
    vnetVniBase: bases.vnetVniBase,
    ...over,
  });
}

/**
 * A cluster of two nodes with shared Ceph storage beside the local one, so that placement, migration
 * and shared templates have somewhere to go; pvestatd's round every `statsIntervalMs`.
 */
export function twoNodeProxmoxSimulator(
  token: { id: string; secret: string },
  templates: ProxmoxSimulatorOptions['templates'],
  statsIntervalMs: number,
): ProxmoxSimulator {
  return createProxmoxSimulator({
    tokenId: token.id,
    tokenSecret: token.secret,
    otherNodes: ['pve2'],
    storages: { ceph: { type: 'rbd', shared: true } },
    statsIntervalMs,
    templates,
  });
}
