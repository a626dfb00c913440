import { randomBytes } from 'node:crypto';
import { startPowerDns, startRecursor, type RunningDnsServer } from './servers/pdns.js';
import { createFaultProxy } from './simulators/fault-proxy.js';
import type { Faults } from './simulators/faults.js';
import { serveApp, type RunningServer } from './simulators/serve.js';
import { createMinioSimulator, type MinioSimulator } from './simulators/minio/index.js';
import { createProxmoxSimulator, type ProxmoxSimulator } from './simulators/proxmox/index.js';

/**
 * The backends of a lab site: real PowerDNS Authoritative and Recursor (Debian's packages), and
 * simulators of the products that cannot run here (Proxmox VE, MinIO). Used by `npm start` and by
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
  stop(): Promise<void>;
}

export const LAB_DOMAIN = 'lab.example';

export async function startLabBackends(opts: { domain?: string; dir?: string; taskMs?: [number, number] } = {}): Promise<LabBackends> {
  const domain = opts.domain ?? LAB_DOMAIN;
  const pdns = await startPowerDns({ dir: opts.dir ? `${opts.dir}/pdns` : undefined });
  const recursor = await startRecursor({ dir: opts.dir ? `${opts.dir}/recursor` : undefined });
  const proxmoxToken = { tokenId: 'svc@pve!provisioning', tokenSecret: randomBytes(16).toString('hex') };
  const proxmox = createProxmoxSimulator({ ...proxmoxToken, node: 'pve1', storage: 'local-lvm', controllers: ['evpnctl'], taskMs: opts.taskMs ?? [0, 2] });
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
  return {
    env,
    pdns: Object.assign(pdns, { faults: pdnsProxy.faults }),
    recursor: Object.assign(recursor, { faults: recursorProxy.faults }),
    proxmox: { ...proxmox, server: proxmoxServer },
    minio: { ...minio, server: minioServer },
    stop: async () => {
      await Promise.all([proxmoxServer.close(), minioServer.close(), pdnsProxyServer.close(), recursorProxyServer.close(), pdns.stop(), recursor.stop()]);
    },
  };
}
