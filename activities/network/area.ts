import type { NetworkPort } from './port.js';
import type { BackendArea } from '../backend-area.js';
import { createProxmoxNetworkAdapter } from '../../backends/proxmox/sdn.js';
import { sdnProbe } from './check.js';

/** Proxmox VE SDN: each tenant's fabric zone, VNet and subnet (the hypervisor area probes the guests' side). */
export const networkArea: BackendArea<'network', NetworkPort, undefined> = {
  port: 'network',
  bind: (site, timeoutMs, calls) =>
    createProxmoxNetworkAdapter({
      apiUrl: site.proxmox.apiUrl,
      tokenId: site.proxmox.tokenId,
      tokenSecret: site.proxmox.tokenSecret,
      controller: site.fabricController,
      node: site.node,
      vrfVniBase: site.vrfVniBase,
      vnetVniBase: site.vnetVniBase,
      taskTimeoutMs: timeoutMs,
      applyTimeoutMs: site.networkApplyTimeoutMs,
      timeoutMs,
      ca: site.proxmox.ca,
      calls,
    }),
  probes: (site, timeoutMs) => [sdnProbe(site, timeoutMs)],
};
