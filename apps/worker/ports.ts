import type { Site } from '../config/site.js';
import type { TenantPorts } from '../../activities/tenant/ports.js';
import { createPowerDnsAdapter } from '../../activities/dns/powerdns.js';
import { createRecursorAdapter } from '../../activities/resolver/recursor.js';
import { createMinioStateAdapter } from '../../activities/state/minio.js';
import { createProxmoxNetworkAdapter } from '../../activities/network/proxmox.js';

/** Binds the site's backends to the product adapters (design §1). */
export function bindPorts(site: Site, opts: { timeoutMs?: number } = {}): TenantPorts {
  const timeoutMs = opts.timeoutMs ?? site.backendTimeoutMs;
  const dns = createPowerDnsAdapter({
    apiUrl: site.dns.apiUrl,
    apiKey: site.dns.apiKey,
    nameservers: site.dns.nameservers,
    updateServer: site.dns.updateServer,
    timeoutMs,
  });
  const recursor = createRecursorAdapter({ apiUrl: site.resolver.apiUrl, apiKey: site.resolver.apiKey, timeoutMs });
  const state = createMinioStateAdapter({
    endpoint: site.state.adminUrl,
    accessKey: site.state.accessKey,
    secretKey: site.state.secretKey,
    bucket: site.state.bucket,
    timeoutMs,
  });
  const network = createProxmoxNetworkAdapter({
    apiUrl: site.proxmox.apiUrl,
    tokenId: site.proxmox.tokenId,
    tokenSecret: site.proxmox.tokenSecret,
    controller: site.fabricController,
    node: site.node,
    vrfVniBase: site.vrfVniBase,
    vnetVniBase: site.vnetVniBase,
    taskTimeoutMs: timeoutMs,
  });
  return {
    dns,
    resolver: {
      ensure: (spec) => recursor.ensure({ zones: spec.zones, forwardTo: site.resolver.forwardTo }),
      remove: (spec) => recursor.remove(spec),
    },
    state,
    network,
  };
}
