import { deriveIdentity } from '../../activities/tenant/derive.js';
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
}

export const ALL_ONE: TenantObjects = {
  zone: 1, reverseZone: 1, tsigKey: 1, fabricZone: 1, vnet: 1, subnet: 1, stateUser: 1, statePolicy: 1, org: 1, dashboardUser: 1,
};
export const NONE: TenantObjects = {
  zone: 0, reverseZone: 0, tsigKey: 0, fabricZone: 0, vnet: 0, subnet: 0, stateUser: 0, statePolicy: 0, org: 0, dashboardUser: 0,
};

const pdnsGet = async <T>(site: TestSite, path: string): Promise<T> => {
  const r = await fetch(`${site.backends.pdns.apiUrl}/servers/localhost${path}`, { headers: { 'X-API-Key': site.backends.pdns.apiKey } });
  if (r.status !== 200) throw new Error(`PowerDNS ${path}: ${r.status}`);
  return (await r.json()) as T;
};

export async function tenantObjects(site: TestSite, name: string, index: number): Promise<TenantObjects> {
  const id = deriveIdentity(site.config.site!, name, index);
  const [zones, keys] = await Promise.all([
    pdnsGet<{ name: string }[]>(site, '/zones'),
    pdnsGet<{ name: string }[]>(site, '/tsigkeys'),
  ]);
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
  };
}

/**
 * Site-wide tenant objects, to catch one held under an identity the per-tenant count does not
 * look at (a second index: another reverse zone, VNet or subnet).
 */
export async function siteTotals(site: TestSite): Promise<{ reverseZones: number; tsigKeys: number; fabricZones: number; vnets: number; subnets: number; stateUsers: number; orgs: number; dashboardUsers: number }> {
  const [zones, keys] = await Promise.all([
    pdnsGet<{ name: string }[]>(site, '/zones'),
    pdnsGet<{ name: string }[]>(site, '/tsigkeys'),
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
