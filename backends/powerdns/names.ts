/**
 * The DNS identifiers of a tenant (design §7): all derived from the tenant's name and index and
 * the site's domain and tenant supernet, so they can be recomputed at any time and never stored.
 */

export const TSIG_ALGORITHM = 'hmac-sha256';

const TENANT_NAME = /^[a-z][a-z0-9]{0,7}$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface TenantDnsInput {
  tenant: string;
  /** `SITE_DOMAIN`, with or without the trailing dot. */
  siteDomain: string;
  /** Tenant index (1..255 fits a /16; the service allocates 1..62). */
  index: number;
  /** `SITE_TENANT_SUPERNET`, a /16 such as `10.128.0.0/16`. */
  supernet: string;
}

export interface TenantDnsNames {
  /** Forward zone, absolute: `<name>.<domain>.` */
  zone: string;
  /** Reverse zone of the tenant's /24, absolute: `<i>.<b>.<a>.in-addr.arpa.` */
  reverseZone: string;
  /** The tenant's /24 in CIDR form. */
  subnet: string;
  tsigKeyName: string;
  tsigAlgorithm: typeof TSIG_ALGORITHM;
}

/** Absolute, lower-case form of a domain name (`Lab.Example` -> `lab.example.`). */
export function absoluteName(name: string): string {
  const n = name.trim().toLowerCase();
  if (n === '' || n === '.') return '.';
  const abs = n.endsWith('.') ? n : `${n}.`;
  const labels = abs.slice(0, -1).split('.');
  if (!labels.every((l) => LABEL.test(l))) throw new RangeError(`not a domain name: ${name}`);
  return abs;
}

/** Parse a dotted IPv4 address into its four octets, or throw. */
export function ipv4Octets(address: string): [number, number, number, number] {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255)) {
    throw new RangeError(`not an IPv4 address: ${address}`);
  }
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  return [a, b, c, d];
}

/** The `index`-th /24 of a /16 supernet: 10.128.0.0/16, 5 -> 10.128.5.0/24. */
export function tenantSubnet(supernet: string, index: number): string {
  const [a, b] = supernetPrefix(supernet);
  checkIndex(index);
  return `${a}.${b}.${index}.0/24`;
}

export function tenantDnsNames(input: TenantDnsInput): TenantDnsNames {
  if (!TENANT_NAME.test(input.tenant)) throw new RangeError(`not a tenant name: ${input.tenant}`);
  const domain = absoluteName(input.siteDomain);
  if (domain === '.') throw new RangeError('the site domain cannot be the root');
  const [a, b] = supernetPrefix(input.supernet);
  checkIndex(input.index);
  return {
    zone: `${input.tenant}.${domain}`,
    reverseZone: `${input.index}.${b}.${a}.in-addr.arpa.`,
    subnet: `${a}.${b}.${input.index}.0/24`,
    tsigKeyName: `tenant-${input.tenant}`,
    tsigAlgorithm: TSIG_ALGORITHM,
  };
}

/** The PTR owner name of an IPv4 address: 10.128.5.10 -> `10.5.128.10.in-addr.arpa.` */
export function ptrName(address: string): string {
  const [a, b, c, d] = ipv4Octets(address);
  return `${d}.${c}.${b}.${a}.in-addr.arpa.`;
}

/** Whether `name` is `zone` itself or a name below it (both compared as absolute names). */
export function isInZone(name: string, zone: string): boolean {
  const n = absoluteName(name);
  const z = absoluteName(zone);
  return z === '.' || n === z || n.endsWith(`.${z}`);
}

function supernetPrefix(supernet: string): [number, number] {
  const m = /^([^/]+)\/(\d+)$/.exec(supernet.trim());
  if (!m || m[2] !== '16') throw new RangeError(`the tenant supernet must be a /16: ${supernet}`);
  const [a, b, c, d] = ipv4Octets(m[1] ?? '');
  if (c !== 0 || d !== 0) throw new RangeError(`the tenant supernet has host bits set: ${supernet}`);
  return [a, b];
}

function checkIndex(index: number): void {
  if (!Number.isInteger(index) || index < 1 || index > 255) throw new RangeError(`tenant index out of range: ${index}`);
}
