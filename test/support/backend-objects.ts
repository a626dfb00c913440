import { createDynsecAdapter } from '../../backends/mosquitto/dynsec.js';
import { createKeaAdapter } from '../../backends/kea/kea.js';
import { routeIds } from '../../backends/caddy/routes.js';
import { deriveIdentity } from '../../core/identity.js';
import type { TestSite } from './site.js';

/**
 * What the backends of a lab site hold for a tenant, counted object by object, so a reliability
 * test can tell "converged" from "converged with a duplicate": a tenant that was given two indexes
 * would hold two reverse zones or two VNets, one that was created twice two dashboard orgs.
 */
export interface TenantObjects {
  zone: number;
  reverseZone: number;
  tsigKey: number;
  fabricZone: number;
  vnet: number;
  subnet: number;
  stateUser: number;
  statePolicy: number;
  org: number;
  dashboardUser: number;
  /** The site resolver's forwards of the tenant's zone and of its reverse zone. */
  forward: number;
  reverseForward: number;
  /** The log gateway's routes (counted in its admin API's config, simulator or real Caddy). */
  ingestRoute: number;
  readRoute: number;
  /** DHCP reservations of the MACs the registry holds for the tenant's devices (a plain tenant has none). */
  reservations: number;
  /** Broker accounts (dynsec clients named `<tenant>-...`; a plain tenant has none). */
  brokerAccounts: number;
}

/** A plain tenant: one of each tenant-wide object, no device reservations or broker accounts. */
export const ALL_ONE: TenantObjects = {
  zone: 1,
  reverseZone: 1,
  tsigKey: 1,
  fabricZone: 1,
  vnet: 1,
  subnet: 1,
  stateUser: 1,
  statePolicy: 1,
  org: 1,
  dashboardUser: 1,
  forward: 1,
  reverseForward: 1,
  ingestRoute: 1,
  readRoute: 1,
  reservations: 0,
  brokerAccounts: 0,
};
/** ALL_ONE at this site: nothing of a backend the site does not have (a minimal lab has no log store or dashboards). */
export function allOneAt(site: TestSite): TenantObjects {
  return {
    ...ALL_ONE,
    ...(site.backends.grafana ? {} : { org: 0, dashboardUser: 0 }),
    ...(site.backends.env.SITE_LOG_URL ? {} : { ingestRoute: 0, readRoute: 0 }),
  };
}

export const NONE: TenantObjects = {
  zone: 0,
  reverseZone: 0,
  tsigKey: 0,
  fabricZone: 0,
  vnet: 0,
  subnet: 0,
  stateUser: 0,
  statePolicy: 0,
  org: 0,
  dashboardUser: 0,
  forward: 0,
  reverseForward: 0,
  ingestRoute: 0,
  readRoute: 0,
  reservations: 0,
  brokerAccounts: 0,
};

const pdnsGet = async <T>(site: TestSite, path: string): Promise<T> => {
  const r = await fetch(`${site.backends.pdns.apiUrl}/servers/localhost${path}`, { headers: { 'X-API-Key': site.backends.pdns.apiKey } });
  if (r.status !== 200) throw new Error(`PowerDNS ${path}: ${r.status}`);
  return (await r.json()) as T;
};

const recursorZones = async (site: TestSite): Promise<{ name: string; kind: string }[]> => {
  const r = await fetch(`${site.backends.recursor.apiUrl}/servers/localhost/zones`, { headers: { 'X-API-Key': site.backends.recursor.apiKey } });
  if (r.status !== 200) throw new Error(`Recursor zones: ${r.status}`);
  return (await r.json()) as { name: string; kind: string }[];
};

let rereads = 0;
/** How many reads of the log gateway's config this process repeated after a reload reset them. */
export const gatewayRereads = (): number => rereads;

/** How many objects anywhere in the log gateway's config carry each `@id`. */
async function gatewayIds(site: TestSite): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const admin = site.backends.env.SITE_LOG_URL;
  if (!admin) return ids;
  // Caddy replaces its admin listener on every config load (caddy.go: run -> replaceLocalAdminServer)
  // and a request that meets the swap finds its connection reset: the lab's proxy in front of the
  // admin API answers 500 for it (tried against a bare Caddy: ~8% of reads reset while two writers
  // load routes). The census reads again, as an operator would, and counts each repeat so the
  // report shows them (gatewayRereads).
  let r = await fetch(`${admin}/config/`);
  for (let i = 0; i < 5 && r.status === 500; i++) {
    rereads++;
    await new Promise((x) => setTimeout(x, 100));
    r = await fetch(`${admin}/config/`);
  }
  if (r.status !== 200) throw new Error(`log gateway /config/: ${r.status}`);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    const id = (v as Record<string, unknown>)['@id'];
    if (typeof id === 'string') ids.set(id, (ids.get(id) ?? 0) + 1);
    Object.values(v).forEach(walk);
  };
  walk(await r.json());
  return ids;
}

/** Every DHCP reservation the site's Kea holds (none without Kea). */
async function reservations(site: TestSite): Promise<{ mac: string; address: string }[]> {
  const kea = site.backends.kea;
  return kea ? createKeaAdapter({ controlUrl: kea.controlUrl, subnetId: 1, timeoutMs: 5000 }).list() : [];
}

/** Broker accounts whose names start with `prefix` (none without a broker). */
async function brokerClients(site: TestSite, prefix: string): Promise<string[]> {
  const m = site.backends.mosquitto;
  if (!m) return [];
  const broker = createDynsecAdapter({ url: m.url, adminUser: m.adminUser, adminPassword: m.adminPassword, timeoutMs: 5000 });
  try {
    // Names of clients and roles (an account is both); the admin is the site's, not a tenant's.
    return (await broker.listClients(prefix)).filter((n) => n !== m.adminUser);
  } finally {
    await broker.close();
  }
}

export async function tenantObjects(site: TestSite, name: string, index: number): Promise<TenantObjects> {
  const id = deriveIdentity(site.config.site!, name, index);
  const [zones, keys, forwards, routes, held, macs, accounts] = await Promise.all([
    pdnsGet<{ name: string }[]>(site, '/zones'),
    pdnsGet<{ name: string }[]>(site, '/tsigkeys'),
    recursorZones(site),
    gatewayIds(site),
    reservations(site),
    site.registry.sql<{ mac: string }[]>`select mac from devices where tenant = ${name} and mac is not null`,
    brokerClients(site, `${name}-`),
  ]);
  const route = routeIds(name);
  const tenantMacs = new Set(macs.map((m) => m.mac.toLowerCase()));
  const sdn = site.backends.proxmox.state.sdn.config;
  const vnets = [...sdn.vnets].filter(([, v]) => v.zone === name).map(([vid]) => vid);
  const grafana = site.backends.grafana?.state;
  return {
    zone: zones.filter((z) => z.name === `${id.zone}.`).length,
    reverseZone: zones.filter((z) => z.name === `${id.reverseZone}.`).length,
    tsigKey: keys.filter((k) => k.name.replace(/\.$/, '') === id.tsigKeyName).length,
    fabricZone: [...sdn.zones.keys()].filter((z) => z === name).length,
    vnet: vnets.length,
    subnet: [...sdn.subnets.values()].filter((s) => vnets.includes(String(s.vnet))).length,
    stateUser: site.backends.minio.state.users.has(id.stateAccessKey) ? 1 : 0,
    statePolicy: site.backends.minio.state.policies.has(`tenant-${name}`) ? 1 : 0,
    org: grafana ? [...grafana.orgs.values()].filter((o) => o.name === name).length : 0,
    dashboardUser: grafana ? [...grafana.users.values()].filter((u) => u.login === `tenant-${name}`).length : 0,
    forward: forwards.filter((z) => z.name === `${id.zone}.` && z.kind.toLowerCase() === 'forwarded').length,
    reverseForward: forwards.filter((z) => z.name === `${id.reverseZone}.` && z.kind.toLowerCase() === 'forwarded').length,
    ingestRoute: routes.get(route.ingest) ?? 0,
    readRoute: routes.get(route.read) ?? 0,
    reservations: held.filter((r) => tenantMacs.has(r.mac.toLowerCase())).length,
    brokerAccounts: accounts.length,
  };
}

/**
 * Site-wide tenant objects, to catch one held under an identity the per-tenant count does not
 * look at (a second index: another reverse zone, VNet or subnet).
 */
export interface SiteTotals {
  reverseZones: number;
  tsigKeys: number;
  fabricZones: number;
  vnets: number;
  subnets: number;
  stateUsers: number;
  orgs: number;
  dashboardUsers: number;
  /** Forwarded zones on the site resolver (two per tenant). */
  forwards: number;
  /** Tenant log routes on the gateway (two per tenant). */
  logRoutes: number;
  reservations: number;
  brokerAccounts: number;
}

export async function siteTotals(site: TestSite): Promise<SiteTotals> {
  const [zones, keys, forwards, routes, held, accounts] = await Promise.all([
    pdnsGet<{ name: string }[]>(site, '/zones'),
    pdnsGet<{ name: string }[]>(site, '/tsigkeys'),
    recursorZones(site),
    gatewayIds(site),
    reservations(site),
    brokerClients(site, ''),
  ]);
  const sdn = site.backends.proxmox.state.sdn.config;
  const grafana = site.backends.grafana?.state;
  return {
    reverseZones: zones.filter((z) => z.name.endsWith('.in-addr.arpa.')).length,
    tsigKeys: keys.filter((k) => k.name.startsWith('tenant-')).length,
    fabricZones: sdn.zones.size,
    vnets: sdn.vnets.size,
    subnets: sdn.subnets.size,
    stateUsers: site.backends.minio.state.users.size,
    orgs: grafana ? [...grafana.orgs.values()].filter((o) => o.id !== 1 && !o.name.startsWith('deleted-')).length : 0,
    dashboardUsers: grafana ? [...grafana.users.values()].filter((u) => u.login.startsWith('tenant-')).length : 0,
    forwards: forwards.filter((z) => z.kind.toLowerCase() === 'forwarded').length,
    logRoutes: [...routes].filter(([id]) => /^svc-logs-.*-(ingest|read)$/.test(id)).reduce((n, [, c]) => n + c, 0),
    reservations: held.length,
    brokerAccounts: accounts.length,
  };
}

/** The TSIG secret PowerDNS holds for the tenant's update key (base64), if any. */
export async function heldTsigSecret(site: TestSite, name: string): Promise<string | undefined> {
  const keys = await pdnsGet<{ id: string; name: string }[]>(site, '/tsigkeys');
  const key = keys.find((k) => k.name.replace(/\.$/, '') === `tenant-${name}`);
  if (!key) return undefined;
  return (await pdnsGet<{ key: string }>(site, `/tsigkeys/${encodeURIComponent(key.id)}`)).key;
}

/** The secret key MinIO holds for the tenant's state-store user, if any. */
export function heldStateSecret(site: TestSite, name: string): string | undefined {
  return site.backends.minio.state.users.get(name)?.secretKey;
}
