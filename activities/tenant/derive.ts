import type { Site } from '../../apps/config/site.js';
import { stateAccessKey } from '../state/access-key.js';

/**
 * Every identifier of a tenant derives from its name, its index and the site (design §7), so the
 * registry stores only the index and the secrets, and a restore converges on the same objects.
 */
export interface TenantIdentity {
  name: string;
  index: number;
  subnet: string;
  gateway: string;
  prefixLength: number;
  vrfVni: number;
  vnetVniBase: number;
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
/** Index 63 is reserved by the site and never allocated. */
export const RESERVED_INDEX = 63;

export function deriveIdentity(site: Pick<Site, 'supernet' | 'vrfVniBase' | 'vnetVniBase' | 'domain' | 'logAccountBase'>, name: string, index: number): TenantIdentity {
  const [a, b] = site.supernet.split('.') as [string, string];
  return {
    name,
    index,
    subnet: `${a}.${b}.${index}.0/24`,
    gateway: `${a}.${b}.${index}.1`,
    prefixLength: 24,
    vrfVni: site.vrfVniBase + index,
    vnetVniBase: site.vnetVniBase + 16 * index,
    fabricZone: name,
    vrf: `vrf_${name}`,
    // Proxmox VNet ids are at most 8 characters: `tv` and the index, zero padded.
    vnet: `tv${String(index).padStart(2, '0')}`,
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
export function chooseIndex(opts: {
  requested?: number;
  fabricIndexOfName?: number;
  taken: ReadonlySet<number>;
}): number | undefined {
  const free = (i: number | undefined): i is number =>
    i !== undefined && i >= MIN_INDEX && i <= MAX_INDEX && !opts.taken.has(i);
  if (free(opts.requested)) return opts.requested;
  if (free(opts.fabricIndexOfName)) return opts.fabricIndexOfName;
  for (let i = MIN_INDEX; i <= MAX_INDEX; i++) if (!opts.taken.has(i)) return i;
  return undefined;
}
