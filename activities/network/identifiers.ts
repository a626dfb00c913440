/**
 * The fabric identifiers of tenant index `i` (design §7), and their inverse: the index a zone
 * or VNet found on the fabric carries, so the service can tell which indexes are in use.
 *
 * - subnet: the i-th /24 of the site's tenant supernet (a /16), gateway `.1`
 * - VRF VNI: `vrfVniBase + i`; the tenant's VNet VNIs: `vnetVniBase + 16*i` .. `+ 15`, the first
 *   one being the tag of its VNet
 * - EVPN zone id: the tenant name (Proxmox zone ids are <= 8 chars, hence the short names);
 *   VRF `vrf_<name>` (the interface Proxmox creates for an EVPN zone)
 * - VNet id: `tv` + the index zero padded to two digits (`tv05`, `tv62`): Proxmox VNet ids are
 *   <= 8 chars of `[a-z0-9]` starting with a letter, and one derived from the index alone
 *   stays valid for every tenant name and cannot collide between tenants.
 */
export interface SiteNetwork {
  /** The tenant supernet, a /16 such as `10.128.0.0/16`. */
  tenantSupernet: string;
  vrfVniBase: number;
  vnetVniBase: number;
}

export interface TenantNetwork {
  index: number;
  zoneId: string;
  vrfName: string;
  vnetId: string;
  vrfVni: number;
  vnetVniBase: number;
  /** The VXLAN id of the tenant's VNet (the first of its 16). */
  vnetTag: number;
  subnet: string;
  gateway: string;
  prefixLen: number;
}

export const INDEX_MIN = 1;
export const INDEX_MAX = 62;
/** Reserved by the site, never allocated; parsers still report it when the fabric carries it. */
export const RESERVED_INDEX = 63;
export const VNIS_PER_TENANT = 16;
const VNI_MAX = 16_777_215;

function supernetOctets(supernet: string): [number, number] {
  const m = /^(\d{1,3})\.(\d{1,3})\.0\.0\/16$/.exec(supernet);
  const a = Number(m?.[1]);
  const b = Number(m?.[2]);
  if (!m || a > 255 || b > 255) throw new RangeError(`tenant supernet must be a /16 like 10.128.0.0/16, got ${supernet}`);
  return [a, b];
}

export function vnetIdFor(index: number): string {
  return `tv${String(index).padStart(2, '0')}`;
}

export function tenantNetwork(name: string, index: number, site: SiteNetwork): TenantNetwork {
  if (!Number.isInteger(index) || index < INDEX_MIN || index > INDEX_MAX) throw new RangeError(`tenant index must be ${INDEX_MIN}..${INDEX_MAX}, got ${index}`);
  const [a, b] = supernetOctets(site.tenantSupernet);
  const vnetVniBase = site.vnetVniBase + VNIS_PER_TENANT * index;
  return {
    index,
    zoneId: name,
    vrfName: `vrf_${name}`,
    vnetId: vnetIdFor(index),
    vrfVni: site.vrfVniBase + index,
    vnetVniBase,
    vnetTag: vnetVniBase,
    subnet: `${a}.${b}.${index}.0/24`,
    gateway: `${a}.${b}.${index}.1`,
    prefixLen: 24,
  };
}

const inRange = (i: number) => (Number.isInteger(i) && i >= INDEX_MIN && i <= RESERVED_INDEX ? i : undefined);

/** The index an EVPN zone's `vrf-vxlan` carries. */
export function indexFromVrfVni(vni: number, site: Pick<SiteNetwork, 'vrfVniBase'>): number | undefined {
  return inRange(vni - site.vrfVniBase);
}

/** The index a VNet's VXLAN tag carries (any of the 16 VNIs of the tenant's range). */
export function indexFromVnetTag(tag: number, site: Pick<SiteNetwork, 'vnetVniBase'>): number | undefined {
  const offset = tag - site.vnetVniBase;
  return offset < 0 ? undefined : inRange(Math.floor(offset / VNIS_PER_TENANT));
}

/** The index a VNet id of the `tvNN` form carries. */
export function indexFromVnetId(id: string): number | undefined {
  const m = /^tv(\d{2})$/.exec(id);
  return m ? inRange(Number(m[1])) : undefined;
}

/** What is wrong with a site's address plan, so configuration can refuse it at start (naming the setting, never its value). */
export function siteNetworkProblems(site: SiteNetwork): { setting: keyof SiteNetwork; reason: string }[] {
  const problems: { setting: keyof SiteNetwork; reason: string }[] = [];
  try {
    supernetOctets(site.tenantSupernet);
  } catch {
    problems.push({ setting: 'tenantSupernet', reason: 'must be an IPv4 /16 like 10.128.0.0/16' });
  }
  const vrf: [number, number] = [site.vrfVniBase + INDEX_MIN, site.vrfVniBase + RESERVED_INDEX];
  const vnet: [number, number] = [site.vnetVniBase + VNIS_PER_TENANT * INDEX_MIN, site.vnetVniBase + VNIS_PER_TENANT * (RESERVED_INDEX + 1) - 1];
  for (const [setting, what, [lo, hi]] of [['vrfVniBase', 'VRF VNIs', vrf], ['vnetVniBase', 'VNet VNIs', vnet]] as const) {
    if (!Number.isInteger(lo) || lo < 1 || hi > VNI_MAX) problems.push({ setting, reason: `the tenants' ${what} it gives must stay within 1..${VNI_MAX}` });
  }
  // Overlapping ranges would hand one VXLAN id to two tenants (one's VRF, another's VNet).
  if (vrf[0] <= vnet[1] && vnet[0] <= vrf[1]) problems.push({ setting: 'vnetVniBase', reason: "the tenants' VNet VNIs it gives overlap their VRF VNIs (SITE_VRF_VNI_BASE)" });
  return problems;
}
