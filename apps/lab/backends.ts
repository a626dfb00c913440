import { randomBytes } from 'node:crypto';
import { startPowerDns, startRecursor, type RunningDnsServer } from './servers/pdns.js';
import { createFaultProxy } from './simulators/fault-proxy.js';
import type { Faults } from './simulators/faults.js';
import { serveApp, type RunningServer } from './simulators/serve.js';
import { createMinioSimulator, type MinioSimulator } from './simulators/minio/index.js';
import { createProxmoxSimulator, type ProxmoxSimulator } from './simulators/proxmox/index.js';
import { createGrafanaSimulator } from './simulators/grafana/index.js';
import { createUnifiSimulator, type UnifiSimulator } from './simulators/unifi/index.js';
import { startKea, type RunningKea } from './servers/kea.js';
import { startMosquitto, type RunningMosquitto } from './servers/mosquitto.js';
import { startLogGateway, type RunningLogGateway } from './servers/log-gateway.js';
import { createLabCa, type LabCa } from '../../activities/certificates/lab-ca.js';

/**
 * The backends of a lab site: real PowerDNS Authoritative and Recursor, Mosquitto, Kea and the
 * Caddy log gateway (Debian's packages), and simulators of the products that cannot run here (Proxmox VE, MinIO). Used by `npm start` and by
 * every end-to-end test, so both drive the same adapters against the same backends.
 */
export interface LabBackends {
  /** The SITE_* variables that point the service at these backends. */
  env: Record<string, string>;
  /** The real servers; the service reaches their APIs through fault proxies (`faults`). */
  pdns: RunningDnsServer & { faults: Faults };
  recursor: RunningDnsServer & { faults: Faults };
  proxmox: ProxmoxSimulator & { server: RunningServer };
  minio: MinioSimulator & { server: RunningServer };
  /** The optional backends, present unless `minimal` was asked for. */
  /** The real Caddy gateway in front of the VictoriaLogs stand-in. */
  logStore?: RunningLogGateway;
  grafana?: ReturnType<typeof createGrafanaSimulator> & { server: RunningServer };
  unifi?: UnifiSimulator & { server: RunningServer };
  kea?: RunningKea;
  mosquitto?: RunningMosquitto;
  ca?: LabCa;
  stop(): Promise<void>;
}

/** The lab's trust classes: SSID and VLAN network on the controller, and the tenants' device range. */
export const LAB_TRUST_CLASSES = {
  sensor: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.200.0.64-10.200.0.127' },
  camera: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.200.0.128-10.200.0.191' },
};

export const LAB_DOMAIN = 'lab.example';

/**
 * `devices`: the device network Kea serves and the trust classes' ranges in it; the lab's /24 holds
 * 128 device addresses, a full site of the bench needs more (bench/full-site.ts).
 */
export async function startLabBackends(
  opts: { domain?: string; dir?: string; taskMs?: [number, number]; pveStatsIntervalMs?: number; minimal?: boolean; devices?: { subnet: string; trustClasses: typeof LAB_TRUST_CLASSES } } = {},
): Promise<LabBackends> {
  const domain = opts.domain ?? LAB_DOMAIN;
  const pdns = await startPowerDns({ dir: opts.dir ? `${opts.dir}/pdns` : undefined });
  const recursor = await startRecursor({ dir: opts.dir ? `${opts.dir}/recursor` : undefined });
  const proxmoxToken = { tokenId: 'svc@pve!provisioning', tokenSecret: randomBytes(16).toString('hex') };
  const proxmox = createProxmoxSimulator({ ...proxmoxToken, node: 'pve1', storage: 'local-lvm', controllers: ['evpnctl'], taskMs: opts.taskMs ?? [0, 2], statsIntervalMs: opts.pveStatsIntervalMs });
  const minioRoot = { rootAccessKey: 'labadmin', rootSecretKey: randomBytes(16).toString('hex') };
  const minio = createMinioSimulator({ ...minioRoot, buckets: ['tenant-state'] });
  const pdnsProxy = createFaultProxy(pdns.apiUrl);
  const recursorProxy = createFaultProxy(recursor.apiUrl);
  const [proxmoxServer, minioServer, pdnsProxyServer, recursorProxyServer] = await Promise.all([
    serveApp(proxmox.app),
    serveApp(minio.app),
    serveApp(pdnsProxy.app),
    serveApp(recursorProxy.app),
  ]);
  const viaProxy = (apiUrl: string, proxy: RunningServer) => `${proxy.url}${new URL(apiUrl).pathname}`;
  const env: Record<string, string> = {
    SITE_DOMAIN: domain,
    SITE_TENANT_SUPERNET: '10.128.0.0/16',
    SITE_TOKEN_KEY: randomBytes(32).toString('base64'),
    SITE_SECRETS_KEY: randomBytes(32).toString('base64'),
    SITE_PDNS_URL: viaProxy(pdns.apiUrl, pdnsProxyServer),
    SITE_PDNS_API_KEY: pdns.apiKey,
    SITE_DNS_UPDATE_SERVER: `127.0.0.1:${pdns.dnsPort}`,
    SITE_DNS_NAMESERVERS: `ns1.${domain}.`,
    SITE_RECURSOR_URL: viaProxy(recursor.apiUrl, recursorProxyServer),
    SITE_RECURSOR_API_KEY: recursor.apiKey,
    SITE_RECURSOR_FORWARD_TO: `127.0.0.1:${pdns.dnsPort}`,
    SITE_MINIO_URL: minioServer.url,
    SITE_MINIO_ACCESS_KEY: minioRoot.rootAccessKey,
    SITE_MINIO_SECRET_KEY: minioRoot.rootSecretKey,
    SITE_STATE_BUCKET: 'tenant-state',
    SITE_PROXMOX_URL: `${proxmoxServer.url}/api2/json`,
    SITE_PROXMOX_TOKEN_ID: proxmoxToken.tokenId,
    SITE_PROXMOX_TOKEN_SECRET: proxmoxToken.tokenSecret,
    SITE_NODE: 'pve1',
    SITE_FABRIC_CONTROLLER: 'evpnctl',
  };
  const optional = opts.minimal ? undefined : await startOptional(env, opts.devices ?? { subnet: '10.200.0.0/24', trustClasses: LAB_TRUST_CLASSES });
  return {
    env,
    ...optional?.parts,
    pdns: Object.assign(pdns, { faults: pdnsProxy.faults }),
    recursor: Object.assign(recursor, { faults: recursorProxy.faults }),
    proxmox: { ...proxmox, server: proxmoxServer },
    minio: { ...minio, server: minioServer },
    stop: async () => {
      await optional?.stop();
      await Promise.all([proxmoxServer.close(), minioServer.close(), pdnsProxyServer.close(), recursorProxyServer.close(), pdns.stop(), recursor.stop()]);
    },
  };
}

/** Log store (real Caddy), dashboards, wireless controller, DHCP (real Kea), broker (real Mosquitto), CA. */
async function startOptional(env: Record<string, string>, devices: { subnet: string; trustClasses: typeof LAB_TRUST_CLASSES }) {
  const grafanaAdmin = { adminUser: 'admin', adminPassword: randomBytes(12).toString('hex') };
  const grafana = createGrafanaSimulator(grafanaAdmin);
  const unifiKey = randomBytes(16).toString('hex');
  const unifi = createUnifiSimulator({
    apiKey: unifiKey,
    networks: [
      { name: 'tenant-devices', vlan: 40 },
      { name: 'tenant-dev', vlan: 41 },
      { name: 'blackhole', vlan: 4000 },
    ],
    wlans: [
      { ssid: 'lab-devices', network: 'tenant-devices' },
      { ssid: 'lab-dev', network: 'tenant-dev' },
      { ssid: 'lab-dev-bound', network: 'tenant-dev' },
    ],
  });
  const [logStore, grafanaServer, unifiServer, kea, mosquitto] = await Promise.all([
    startLogGateway(),
    serveApp(grafana.app),
    serveApp(unifi.app),
    startKea({ subnets: [{ id: 1, subnet: devices.subnet }] }),
    startMosquitto(),
  ]);
  const ca = createLabCa();
  Object.assign(env, {
    SITE_LOG_URL: logStore.adminUrl,
    SITE_LOG_SERVER: logStore.server,
    SITE_LOG_UPSTREAM: logStore.upstream,
    SITE_LOG_ENDPOINT: logStore.endpoint,
    SITE_GRAFANA_URL: grafanaServer.url,
    SITE_GRAFANA_ADMIN_USER: grafanaAdmin.adminUser,
    SITE_GRAFANA_ADMIN_PASSWORD: grafanaAdmin.adminPassword,
    SITE_WIFI_URL: unifiServer.url,
    SITE_WIFI_API_KEY: unifiKey,
    SITE_WIFI_PLACEHOLDER_NETWORK: 'blackhole',
    SITE_WIFI_DEVELOPER_SSID: 'lab-dev',
    SITE_WIFI_DEVELOPER_VLAN: 'tenant-dev',
    SITE_WIFI_DEVELOPER_BOUND_SSID: 'lab-dev-bound',
    SITE_TRUST_CLASSES: JSON.stringify(devices.trustClasses),
    SITE_DHCP_URL: kea.controlUrl,
    SITE_DHCP_SUBNET_ID: '1',
    SITE_BROKER_URL: mosquitto.url,
    SITE_BROKER_ADMIN_USER: mosquitto.adminUser,
    SITE_BROKER_ADMIN_PASSWORD: mosquitto.adminPassword,
    SITE_CA_CERT: ca.caCertPem,
    SITE_CA_KEY: ca.caKeyPem,
    SITE_CA_CHAIN: ca.chainPem.join('\n'),
  });
  return {
    parts: {
      logStore,
      grafana: { ...grafana, server: grafanaServer },
      unifi: { ...unifi, server: unifiServer },
      kea,
      mosquitto,
      ca,
    },
    stop: async () => {
      await Promise.all([logStore.stop(), grafanaServer.close(), unifiServer.close(), kea.stop(), mosquitto.stop()]);
    },
  };
}
