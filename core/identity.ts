/**
 * Every identifier of a tenant derives from its name, its index and the site's address plan
 * (design §7), so the registry stores only the index and the secrets, and a restore converges on
 * the same objects. The inverses read the index a zone or VNet found on the fabric carries, so the
 * service can tell which indexes are in use. This is the one derivation: every layer imports it.
 *
 * - subnet: the i-th /24 of the site's tenant supernet (a /16), gateway `.1`
 * - VRF VNI: `vrfVniBase + i`; the tenant's VNet VNIs: `vnetVniBase + 16*i` .. `+ 15`, the first
 *   one being the tag of its VNet
 * - fabric zone: the tenant name (Proxmox zone ids are <= 8 chars, hence the short names); VRF
 *   `vrf_<name>` (the interface Proxmox creates for an EVPN zone)
 * - VNet id: `tv` + the index zero padded to two digits (`tv05`, `tv62`): Proxmox VNet ids are
 *   <= 8 chars of `[a-z0-9]` starting with a letter, and one derived from the index alone stays
 *   valid for every tenant name and cannot collide between tenants.
 */

/** The site settings the identifiers derive from. */
export interface AddressPlan {
  /** The tenant supernet, a /16 such as `10.128.0.0/16`. */
  supernet: string;
  vrfVniBase: number;
  vnetVniBase: number;
  domain: string;
  logAccountBase: number;
}

export interface TenantIdentity {
  name: string;
  index: number;
  subnet: string;
  gateway: string;
  prefixLength: number;
  vrfVni: number;
  /** The first of the tenant's 16 VNet VNIs. */
  vnetVniBase: number;
  /** The VXLAN id of the tenant's VNet: the first of its VNIs. */
  vnetTag: number;
  fabricZone: string;
  vrf: string;
  vnet: string;
  zone: string;
  reverseZone: string;
  tsigKeyName: string;
  tsigAlgorithm: 'hmac-sha256';
  stateAccessKey: string;
  stateKeyPrefix: string;
  logAccountId: number;
}

export const MIN_INDEX = 1;
export const MAX_INDEX = 62;
/** Reserved by the site, never allocated; the inverses still report it when the fabric carries it. */
export const RESERVED_INDEX = 63;
export const VNIS_PER_TENANT = 16;
const VNI_MAX = 16_777_215;

/**
 * MinIO refuses access keys shorter than three characters (accessKeyMinLen), and the spec's name
 * pattern allows one or two, so a short name is prefixed: `tenant-<name>`. Every other name is its
 * own access key (design §7: the tenant name).
 */
export const MINIO_ACCESS_KEY_MIN = 3;

export function stateAccessKey(tenant: string): string {
  return tenant.length >= MINIO_ACCESS_KEY_MIN ? tenant : `tenant-${tenant}`;
}

function supernetOctets(supernet: string): [number, number] {
  const m = /^(\d{1,3})\.(\d{1,3})\.0\.0\/16$/.exec(supernet);
  const a = Number(m?.[1]);
  const b = Number(m?.[2]);
  if (!m || a > 255 || b > 255) throw new RangeError(`tenant supernet must be a /16 like 10.128.0.0/16, got ${supernet}`);
  return [a, b];
}

export function vnetFor(index: number): string {
  return `tv${String(index).padStart(2, '0')}`;
}

export function deriveIdentity(site: AddressPlan, name: string, index: number): TenantIdentity {
  if (!Number.isInteger(index) || index < MIN_INDEX || index > MAX_INDEX) throw new RangeError(`tenant index must be ${MIN_INDEX}..${MAX_INDEX}, got ${index}`);
  const [a, b] = supernetOctets(site.supernet);
  const vnetVniBase = site.vnetVniBase + VNIS_PER_TENANT * index;
  return {
    name,
    index,
    subnet: `${a}.${b}.${index}.0/24`,
    gateway: `${a}.${b}.${index}.1`,
    prefixLength: 24,
    vrfVni: site.vrfVniBase + index,
    vnetVniBase,
    vnetTag: vnetVniBase,
    fabricZone: name,
    vrf: `vrf_${name}`,
    vnet: vnetFor(index),
    zone: `${name}.${site.domain}`,
    reverseZone: `${index}.${b}.${a}.in-addr.arpa`,
    tsigKeyName: `tenant-${name}`,
    tsigAlgorithm: 'hmac-sha256',
    stateAccessKey: stateAccessKey(name),
    stateKeyPrefix: `${name}/`,
    logAccountId: site.logAccountBase + index,
  };
}

/**
 * The index choice for a name the registry does not hold (spec: States and transitions): the
 * requested index if free; else the one the fabric already uses for a zone of this name; else the
 * lowest free. Free means held by no registry row and carried by no fabric zone or VNet.
 */
export function chooseIndex(opts: { requested?: number; fabricIndexOfName?: number; taken: ReadonlySet<number> }): number | undefined {
  const free = (i: number | undefined): i is number => i !== undefined && i >= MIN_INDEX && i <= MAX_INDEX && !opts.taken.has(i);
  if (free(opts.requested)) return opts.requested;
  if (free(opts.fabricIndexOfName)) return opts.fabricIndexOfName;
  for (let i = MIN_INDEX; i <= MAX_INDEX; i++) if (!opts.taken.has(i)) return i;
  return undefined;
}

const inRange = (i: number) => (Number.isInteger(i) && i >= MIN_INDEX && i <= RESERVED_INDEX ? i : undefined);

/** The index an EVPN zone's `vrf-vxlan` carries. */
export function indexFromVrfVni(vni: number, site: Pick<AddressPlan, 'vrfVniBase'>): number | undefined {
  return inRange(vni - site.vrfVniBase);
}

/** The index a VNet's VXLAN tag carries (any of the 16 VNIs of the tenant's range). */
export function indexFromVnetTag(tag: number, site: Pick<AddressPlan, 'vnetVniBase'>): number | undefined {
  const offset = tag - site.vnetVniBase;
  return offset < 0 ? undefined : inRange(Math.floor(offset / VNIS_PER_TENANT));
}

/** The index a VNet id of the `tvNN` form carries. */
export function indexFromVnetId(id: string): number | undefined {
  const m = /^tv(\d{2})$/.exec(id);
  return m ? inRange(Number(m[1])) : undefined;
}

type NetworkPlan = Pick<AddressPlan, 'supernet' | 'vrfVniBase' | 'vnetVniBase'>;

/** What is wrong with a site's address plan, so configuration can refuse it at start (naming the setting, never its value). */
export function addressPlanProblems(site: NetworkPlan): { setting: keyof NetworkPlan; reason: string }[] {
  const problems: { setting: keyof NetworkPlan; reason: string }[] = [];
  try {
    supernetOctets(site.supernet);
  } catch {
    problems.push({ setting: 'supernet', reason: 'must be an IPv4 /16 like 10.128.0.0/16' });
  }
  const vrf: [number, number] = [site.vrfVniBase + MIN_INDEX, site.vrfVniBase + RESERVED_INDEX];
  const vnet: [number, number] = [site.vnetVniBase + VNIS_PER_TENANT * MIN_INDEX, site.vnetVniBase + VNIS_PER_TENANT * (RESERVED_INDEX + 1) - 1];
  for (const [setting, what, [lo, hi]] of [
    ['vrfVniBase', 'VRF VNIs', vrf],
    ['vnetVniBase', 'VNet VNIs', vnet],
  ] as const) {
    if (!Number.isInteger(lo) || lo < 1 || hi > VNI_MAX) problems.push({ setting, reason: `the tenants' ${what} it gives must stay within 1..${VNI_MAX}` });
  }
  // Overlapping ranges would hand one VXLAN id to two tenants (one's VRF, another's VNet).
  if (vrf[0] <= vnet[1] && vnet[0] <= vrf[1])
    problems.push({ setting: 'vnetVniBase', reason: "the tenants' VNet VNIs it gives overlap their VRF VNIs (SITE_VRF_VNI_BASE)" });
  return problems;
}
