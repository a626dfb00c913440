import { proxmoxSettings } from './settings.js';
import type { HypervisorAdapter } from './proxmox.js';
import { type BackendArea, probe } from '../backend-area.js';
import { PveApi } from '../network/pve-api.js';
import { createProxmoxHypervisorAdapter } from './proxmox.js';

/** Proxmox VE guests: the tenants' workloads. */
export const hypervisorArea: BackendArea<'hypervisor', HypervisorAdapter, typeof proxmoxSettings> = {
  port: 'hypervisor',
  settings: proxmoxSettings,
  bind: (site, timeoutMs) =>
    createProxmoxHypervisorAdapter({
      apiUrl: site.proxmox.apiUrl,
      tokenId: site.proxmox.tokenId,
      tokenSecret: site.proxmox.tokenSecret,
      node: site.node,
      storage: site.storage,
      templatePrefix: site.templatePrefix,
      taskTimeoutMs: site.hypervisorTaskTimeoutMs,
      timeoutMs,
      ca: site.proxmox.ca,
    }),
  probes: (site, timeoutMs) => [
    probe('proxmox', site.proxmox.apiUrl, async () => {
      const { apiUrl, tokenId, tokenSecret, ca } = site.proxmox;
      const pve = new PveApi({ apiUrl, tokenId, tokenSecret, taskTimeoutMs: timeoutMs, timeoutMs, ca });
      const v = await pve.get<{ version?: string }>('/version');
      const vms = await pve.get<unknown[]>(`/nodes/${encodeURIComponent(site.node)}/qemu`);
      return `Proxmox VE ${v.version ?? '?'}; node ${site.node} lists ${vms.length} guests`;
    }),
  ],
};
