import type { Site } from '../../core/site.js';
import type { BackendPorts } from '../../activities/ports.js';
import { createPowerDnsAdapter } from '../../activities/dns/powerdns.js';
import { createRecursorAdapter } from '../../activities/resolver/recursor.js';
import { createMinioStateAdapter } from '../../activities/state/minio.js';
import { createProxmoxNetworkAdapter } from '../../activities/network/proxmox.js';
import { createProxmoxHypervisorAdapter } from '../../activities/hypervisor/proxmox.js';
import { createLogStoreAdapter } from '../../activities/log-store/caddy.js';
import { createGrafanaAdapter } from '../../activities/dashboards/grafana.js';
import { siteWifiController } from '../../activities/wifi/site-controller.js';
import { createKeaAdapter } from '../../activities/devices/kea.js';
import { createDynsecAdapter } from '../../activities/broker/dynsec.js';
import { createIssuer } from '../../activities/certificates/issuer.js';
import { LOG_SELECT_HEADER } from '../../core/tenant-view.js';
import { paceBackendCalls } from '../../activities/backend-pace.js';
import { outcomeOf } from '../../core/backend-outcome.js';

/** Binds the site's backends to the product adapters (design §1). */
export function bindPorts(site: Site, opts: { timeoutMs?: number } = {}): BackendPorts {
  const timeoutMs = opts.timeoutMs ?? site.backendTimeoutMs;
  paceBackendCalls(site.backendCallsPerSecond);
  const dns = createPowerDnsAdapter({
    apiUrl: site.dns.apiUrl,
    apiKey: site.dns.apiKey,
    nameservers: site.dns.nameservers,
    updateServer: site.dns.updateServer,
    timeoutMs,
    ca: site.dns.ca,
  });
  const recursor = createRecursorAdapter({ apiUrl: site.resolver.apiUrl, apiKey: site.resolver.apiKey, timeoutMs, ca: site.resolver.ca });
  const state = createMinioStateAdapter({
    endpoint: site.state.adminUrl,
    accessKey: site.state.accessKey,
    secretKey: site.state.secretKey,
    bucket: site.state.bucket,
    region: site.state.region,
    timeoutMs,
    ca: site.state.ca,
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
    applyTimeoutMs: site.networkApplyTimeoutMs,
    timeoutMs,
    ca: site.proxmox.ca,
  });
  const hypervisor = createProxmoxHypervisorAdapter({
    apiUrl: site.proxmox.apiUrl,
    tokenId: site.proxmox.tokenId,
    tokenSecret: site.proxmox.tokenSecret,
    node: site.node,
    storage: site.storage,
    templatePrefix: site.templatePrefix,
    taskTimeoutMs: site.hypervisorTaskTimeoutMs,
    timeoutMs,
    ca: site.proxmox.ca,
  });
  const logStore = site.logStore
    ? createLogStoreAdapter({ adminUrl: site.logStore.adminUrl, server: site.logStore.server, upstream: site.logStore.upstream, endpoint: site.logStore.endpoint, timeoutMs, ca: site.logStore.ca })
    : undefined;
  const grafana = site.grafana ? createGrafanaAdapter({ ...site.grafana, timeoutMs }) : undefined;
  return {
    hypervisor,
    logStore,
    dashboards:
      grafana && site.logStore
        ? {
            ensure: (spec) =>
              grafana.ensure({ ...spec, logEndpoint: site.logStore!.endpoint, selectHeader: LOG_SELECT_HEADER }),
            plan: (spec) => grafana.plan({ ...spec, logEndpoint: site.logStore!.endpoint, selectHeader: LOG_SELECT_HEADER }),
            loginExists: (username) => grafana.loginExists(username),
            remove: (spec) => grafana.remove(spec),
          }
        : undefined,
    wifi: site.wifi
      ? siteWifiController.connect({ ...site.wifi, timeoutMs })
      : undefined,
    deviceAddress: site.dhcp
      ? createKeaAdapter({ controlUrl: site.dhcp.controlUrl, subnetId: site.dhcp.subnetId, authUser: site.dhcp.user, authPassword: site.dhcp.password, control: site.dhcp.control, timeoutMs, ca: site.dhcp.ca })
      : undefined,
    broker: site.broker ? createDynsecAdapter({ url: site.broker.url, adminUser: site.broker.adminUser, adminPassword: site.broker.adminPassword, timeoutMs, ca: site.broker.ca }) : undefined,
    ca: site.ca ? createIssuer({ caCertPem: site.ca.certPem, caKeyPem: site.ca.keyPem, chainPem: splitPem(site.ca.chainPem), siteDomain: site.domain }) : undefined,
    dns,
    resolver: {
      ensure: (spec) => recursor.ensure({ zones: spec.zones, forwardTo: site.resolver.forwardTo }),
      plan: async (spec) => (await recursor.observe({ zones: spec.zones, forwardTo: site.resolver.forwardTo })).map((o) => outcomeOf(`forward ${o.zone}`, o.exists, !o.matches, o.drift)),
      remove: (spec) => recursor.remove(spec),
    },
    state,
    network,
  };
}

/** A PEM bundle as its certificates, in order. */
function splitPem(bundle: string | undefined): string[] | undefined {
  return bundle?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? undefined;
}
