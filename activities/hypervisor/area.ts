import { proxmoxSettings } from './settings.js';
import type { HypervisorAdapter } from '../../backends/proxmox/qemu.js';
import { type BackendArea, probe } from '../backend-area.js';
import { PveApi } from '../../backends/proxmox/pve-api.js';
import { createProxmoxHypervisorAdapter } from '../../backends/proxmox/qemu.js';

/** Proxmox VE guests: the tenants' workloads. */
export const hypervisorArea: BackendArea<'hypervisor', HypervisorAdapter, typeof proxmoxSettings> = {
  port: 'hypervisor',
  settings: proxmoxSettings,
  bind: (site, timeoutMs, calls) =>
    createProxmoxHypervisorAdapter({
      ...site.proxmox,
      node: site.node,
      storage: site.storage,
      templatePrefix: site.templatePrefix,
      taskTimeoutMs: site.hypervisorTaskTimeoutMs,
      timeoutMs,
      calls,
    }),
  probes: (site, timeoutMs) => [
    probe('proxmox', site.proxmox.apiUrl, async () => {
      const pve = new PveApi({ ...site.proxmox, taskTimeoutMs: timeoutMs, timeoutMs });
      const v = await pve.get<{ version?: string }>('/version');
      const vms = await pve.get<unknown[]>(`/nodes/${encodeURIComponent(site.node)}/qemu`);
      return `Proxmox VE ${v.version ?? '?'}; node ${site.node} lists ${vms.length} guests`;
    }),
  ],
};
