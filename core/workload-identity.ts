import { ORDINALS_PER_TENANT, VMID_MAX, VMID_MIN } from './vmid.js';

/**
 * A workload's identity (spec: Workload; design §7), stable for its life and derived from the
 * tenant's index and the workload's ordinal alone:
 * - ordinal: 0..39, the lowest one the tenant does not use (reused after a delete)
 * - VMID: `vmidBase + 40*index + ordinal`
 * - MAC: `02:00:` + the VMID as 4 bytes, hex (locally administered, unicast, unique per VMID)
 * - address: `.10 + ordinal` in the tenant's /24
 */
export { ORDINALS_PER_TENANT };
export const ORDINAL_MIN = 0;
export const ORDINAL_MAX = ORDINALS_PER_TENANT - 1;

export interface WorkloadIdentity {
  ordinal: number;
  vmid: number;
  mac: string;
  address: string;
}

function checkOrdinal(ordinal: number): void {
  if (!Number.isInteger(ordinal) || ordinal < ORDINAL_MIN || ordinal > ORDINAL_MAX) {
    throw new RangeError(`workload ordinal must be ${ORDINAL_MIN}..${ORDINAL_MAX}, got ${ordinal}`);
  }
}

export function workloadVmid(vmidBase: number, index: number, ordinal: number): number {
  checkOrdinal(ordinal);
  const vmid = vmidBase + ORDINALS_PER_TENANT * index + ordinal;
  if (!Number.isInteger(vmid) || vmid < VMID_MIN || vmid > VMID_MAX) throw new RangeError(`VMID ${vmid} is outside ${VMID_MIN}..${VMID_MAX}`);
  return vmid;
}

export function workloadMac(vmid: number): string {
  if (!Number.isInteger(vmid) || vmid < 0 || vmid > 0xffffffff) throw new RangeError(`VMID ${vmid} does not fit 4 bytes`);
  const hex = vmid.toString(16).padStart(8, '0');
  return ['02', '00', ...(hex.match(/../g) ?? [])].join(':');
}

/** `.10 + ordinal` in a /24 given as CIDR (`10.128.5.0/24`). */
export function workloadAddress(subnet: string, ordinal: number): string {
  checkOrdinal(ordinal);
  const m = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.0\/24$/.exec(subnet);
  if (!m) throw new RangeError(`tenant subnet must be a /24 like 10.128.5.0/24, got ${subnet}`);
  return `${m[1]}.${10 + ordinal}`;
}

export function lowestFreeOrdinal(used: Iterable<number>): number | undefined {
  const taken = new Set(used);
  for (let o = ORDINAL_MIN; o <= ORDINAL_MAX; o++) if (!taken.has(o)) return o;
  return undefined;
}

export function workloadIdentity(vmidBase: number, tenant: { index: number; subnet: string }, ordinal: number): WorkloadIdentity {
  const vmid = workloadVmid(vmidBase, tenant.index, ordinal);
  return { ordinal, vmid, mac: workloadMac(vmid), address: workloadAddress(tenant.subnet, ordinal) };
}
