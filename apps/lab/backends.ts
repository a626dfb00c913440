import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onLastPortOrAny } from './last-port.js';
import { assignFields, persistSnapshot, pickFields, type SnapshotStore } from './simulators/snapshot.js';
import { startPowerDns, startRecursor, type RunningDnsServer, type SettingOverrides } from './servers/pdns.js';
import { createFaultProxy } from './simulators/fault-proxy.js';
import type { Faults } from './simulators/faults.js';
import { applyLatencyProfile, latencyProfile } from './simulators/latency-profile.js';
import { serveApp, type RunningServer } from './simulators/serve.js';
import { createMinioSimulator, type MinioSimulator } from './simulators/minio/index.js';
import { createProxmoxSimulator, type ProxmoxSimulator } from './simulators/proxmox/index.js';
import type { PveRelease } from './simulators/proxmox/release.js';
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
 * What a kept lab site (`stateDir`) must find again on its next start besides the servers' own data:
 * the secrets the registry's tokens and sealed secrets and the backends' accounts were made with,
 * the CA that signed the tenants' certificates, and the ports addresses were stored with.
 */
export interface LabSiteState {
  secrets: Record<string, string>;
  ca?: LabCa;
  ports: Record<string, number>;
}

export const SITE_STATE_FILE = 'site-state.json';

function readSiteState(stateDir: string | undefined): LabSiteState {
  const file = stateDir && join(stateDir, SITE_STATE_FILE);
  if (!file || !existsSync(file)) return { secrets: {}, ports: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as LabSiteState;
}

/**
 * `devices`: the device network Kea serves and the trust classes' ranges in it; the lab's /24 holds
 * 128 device addresses, a full site of the bench needs more (bench/full-site.ts).
 */
export async function startLabBackends(
  opts: {
    domain?: string;
    dir?: string;
    /**
     * Keep the site here across starts (`npm start`): secrets, the CA and ports in site-state.json
     * (0600), the real servers' data in their own directories, the simulators' state in
     * simulators.json. A start with the directory holding them brings the same site back. Without it
     * (the tests) every start is a new site, in temporary directories removed at stop.
     */
    stateDir?: string;
    /** The simulators' latency profile (`LAB_LATENCY`: zero, real-site; apps/lab/simulators/latency-profile.ts). */
    latency?: string;
    taskMs?: [number, number];
    pveStatsIntervalMs?: number;
    /** The Proxmox VE release the simulator serves (9 by default; 8: no SDN lock, rollback or fabrics). */
    pveRelease?: PveRelease;
    minimal?: boolean;
    devices?: { subnet: string; trustClasses: typeof LAB_TRUST_CLASSES };
    /** pdns.conf / recursor.conf changes: a site set up wrong, for `--check-backends` to find (e.g. `{ pdns: { dnsupdate: 'no' } }`). */
    serverSettings?: { pdns?: SettingOverrides; recursor?: SettingOverrides };
  } = {},
): Promise<LabBackends> {
  const domain = opts.domain ?? LAB_DOMAIN;
  // Read first: an unknown profile stops the lab before any server starts.
  const profile = latencyProfile(opts.latency);
  const stateDir = opts.stateDir;
  const dir = stateDir ?? opts.dir;
  const saved = readSiteState(stateDir);
  const site: LabSiteState = { secrets: {}, ports: {}, ca: saved.ca };
  const secret = (name: string, bytes: number, encoding: BufferEncoding) => (site.secrets[name] = saved.secrets[name] ?? randomBytes(bytes).toString(encoding));
  const lastPort = (name: string) => saved.ports[name];
  // A kept site saves the simulators' state soon after each request they answer (set once loaded).
  let touched = () => {};
  const served = (app: Hono): Hono => {
    if (!stateDir) return app;
    const outer = new Hono();
    outer.all('*', async (c) => {
      // c.env carries the node-server bindings (the Proxmox simulator sets a reason phrase there).
      const res = await app.fetch(c.req.raw, c.env);
      touched();
      return res;
    });
    return outer;
  };
  const pdns = await startPowerDns({ dir: dir ? `${dir}/pdns` : undefined, ports: pair(saved.ports, 'pdns'), settings: opts.serverSettings?.pdns });
  if (stateDir && saved.ports.pdnsDns && saved.ports.pdnsDns !== pdns.dnsPort)
    moveForwards(join(stateDir, 'recursor', 'api.d'), saved.ports.pdnsDns, pdns.dnsPort);
  const recursor = await startRecursor({
    dir: dir ? `${dir}/recursor` : undefined,
    ports: pair(saved.ports, 'recursor'),
    settings: opts.serverSettings?.recursor,
  });
  const proxmoxToken = { tokenId: 'svc@pve!provisioning', tokenSecret: secret('proxmoxTokenSecret', 16, 'hex') };
  const proxmox = createProxmoxSimulator({
    ...proxmoxToken,
    node: 'pve1',
    storage: 'local-lvm',
    controllers: ['evpnctl'],
    taskMs: opts.taskMs ?? [0, 2],
    statsIntervalMs: opts.pveStatsIntervalMs,
    release: opts.pveRelease,
  });
  const minioRoot = { rootAccessKey: 'labadmin', rootSecretKey: secret('minioRootSecretKey', 16, 'hex') };
  const minio = createMinioSimulator({ ...minioRoot, buckets: ['tenant-state'] });
  const pdnsProxy = createFaultProxy(pdns.apiUrl);
  const recursorProxy = createFaultProxy(recursor.apiUrl);
  const [proxmoxServer, minioServer, pdnsProxyServer, recursorProxyServer] = await Promise.all([
    onLastPortOrAny(lastPort('proxmox'), (p) => serveApp(served(proxmox.app), p)),
    onLastPortOrAny(lastPort('minio'), (p) => serveApp(served(minio.app), p)),
    onLastPortOrAny(lastPort('pdnsProxy'), (p) => serveApp(pdnsProxy.app, p)),
    onLastPortOrAny(lastPort('recursorProxy'), (p) => serveApp(recursorProxy.app, p)),
  ]);
  Object.assign(site.ports, {
    pdnsDns: pdns.dnsPort,
    pdnsWeb: Number(new URL(pdns.apiUrl).port),
    recursorDns: recursor.dnsPort,
    recursorWeb: Number(new URL(recursor.apiUrl).port),
    proxmox: proxmoxServer.port,
    minio: minioServer.port,
    pdnsProxy: pdnsProxyServer.port,
    recursorProxy: recursorProxyServer.port,
  });
  const viaProxy = (apiUrl: string, proxy: RunningServer) => `${proxy.url}${new URL(apiUrl).pathname}`;
  const env: Record<string, string> = {
    SITE_DOMAIN: domain,
    SITE_TENANT_SUPERNET: '10.128.0.0/16',
    SITE_TOKEN_KEY: secret('tokenKey', 32, 'base64'),
    SITE_SECRETS_KEY: secret('secretsKey', 32, 'base64'),
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
  const optional = opts.minimal
    ? undefined
    : await startOptional(env, opts.devices ?? { subnet: '10.200.0.0/24', trustClasses: LAB_TRUST_CLASSES }, { stateDir, saved, site, secret, served });
  applyLatencyProfile(profile, { proxmox, minio, grafana: optional?.parts.grafana, unifi: optional?.parts.unifi });
  let snapshot: SnapshotStore | undefined;
  if (stateDir) {
    writeFileSync(join(stateDir, SITE_STATE_FILE), JSON.stringify(site, null, 2) + '\n', { mode: 0o600 });
    snapshot = persistSnapshot(join(stateDir, 'simulators.json'), {
      proxmox: {
        save: () => proxmox.state,
        load: (data) => {
          assignFields(proxmox.state, data);
          // A task's work ran in the stopped process: one still running there never ends here.
          for (const task of proxmox.state.tasks.values()) {
            if (task.status === 'running') Object.assign(task, { status: 'stopped', exitstatus: 'interrupted: the lab stopped' });
          }
        },
      },
      minio: { save: () => pickFields(minio.state, ['calls', 'root']), load: (data) => assignFields(minio.state, data) },
      ...(optional
        ? {
            grafana: {
              save: () => pickFields(optional.parts.grafana.state, ['loginAttempts', 'usersConfig']),
              load: (data: unknown) => assignFields(optional.parts.grafana.state, data),
            },
            unifi: { save: () => pickFields(optional.parts.unifi.state, ['apiKey']), load: (data: unknown) => assignFields(optional.parts.unifi.state, data) },
            logs: {
              save: () => optional.parts.logStore.logs,
              load: (data: unknown) => {
                const logs = optional.parts.logStore.logs;
                logs.clear();
                for (const [k, v] of data as typeof logs) logs.set(k, v);
              },
            },
          }
        : {}),
    });
    touched = snapshot.touch;
  }
  return {
    env,
    ...optional?.parts,
    pdns: Object.assign(pdns, { faults: pdnsProxy.faults }),
    recursor: Object.assign(recursor, { faults: recursorProxy.faults }),
    proxmox: { ...proxmox, server: proxmoxServer },
    minio: { ...minio, server: minioServer },
    stop: async () => {
      snapshot?.stop();
      await optional?.stop();
      await Promise.all([proxmoxServer.close(), minioServer.close(), pdnsProxyServer.close(), recursorProxyServer.close(), pdns.stop(), recursor.stop()]);
    },
  };
}

/** `<name>Dns` and `<name>Web` of the last start, when both were saved. */
function pair(ports: Record<string, number>, name: string): { dns: number; web: number } | undefined {
  const dns = ports[`${name}Dns`];
  const web = ports[`${name}Web`];
  return dns && web ? { dns, web } : undefined;
}

/** The Recursor's forward zones (files its API wrote) name the Authoritative's DNS port: move them to the new one. */
function moveForwards(apiDir: string, from: number, to: number): void {
  if (!existsSync(apiDir)) return;
  for (const name of readdirSync(apiDir)) {
    const file = join(apiDir, name);
    const text = readFileSync(file, 'utf8');
    const moved = text.replaceAll(`127.0.0.1:${from}`, `127.0.0.1:${to}`);
    if (moved !== text) writeFileSync(file, moved);
  }
}

interface Keep {
  stateDir: string | undefined;
  saved: LabSiteState;
  site: LabSiteState;
  secret: (name: string, bytes: number, encoding: BufferEncoding) => string;
  served: (app: Hono) => Hono;
}

/** Log store (real Caddy), dashboards, wireless controller, DHCP (real Kea), broker (real Mosquitto), CA. */
async function startOptional(env: Record<string, string>, devices: { subnet: string; trustClasses: typeof LAB_TRUST_CLASSES }, keep: Keep) {
  const { stateDir, saved, site, secret, served } = keep;
  const grafanaAdmin = { adminUser: 'admin', adminPassword: secret('grafanaAdminPassword', 12, 'hex') };
  const grafana = createGrafanaSimulator(grafanaAdmin);
  const unifiKey = secret('unifiApiKey', 16, 'hex');
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
  const p = saved.ports;
  const [logStore, grafanaServer, unifiServer, kea, mosquitto] = await Promise.all([
    startLogGateway(
      stateDir
        ? { dir: join(stateDir, 'caddy'), keep: true, ports: { upstream: p.logUpstream, admin: p.caddyAdmin, logs: p.caddyLogs, proxy: p.logProxy } }
        : {},
    ),
    onLastPortOrAny(p.grafana, (port) => serveApp(served(grafana.app), port)),
    onLastPortOrAny(p.unifi, (port) => serveApp(served(unifi.app), port)),
    onLastPortOrAny(p.kea, (port) =>
      startKea({ subnets: [{ id: 1, subnet: devices.subnet }], ...(stateDir ? { dir: join(stateDir, 'kea') } : {}), ...(port ? { port } : {}) }),
    ),
    onLastPortOrAny(p.mosquitto, (port) => startMosquitto({ ...(stateDir ? { dir: join(stateDir, 'mosquitto') } : {}), ...(port ? { port } : {}) })),
  ]);
  const ca = (site.ca ??= await createLabCa());
  Object.assign(site.ports, {
    logUpstream: Number(logStore.upstream.split(':')[1]),
    caddyAdmin: Number(new URL(logStore.caddy.adminUrl).port),
    caddyLogs: Number(new URL(logStore.endpoint).port),
    logProxy: Number(new URL(logStore.adminUrl).port),
    grafana: grafanaServer.port,
    unifi: unifiServer.port,
    kea: Number(new URL(kea.controlUrl).port),
    mosquitto: mosquitto.port,
  });
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
