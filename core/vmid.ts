import { MAX_INDEX, MIN_INDEX } from './identity.js';

/**
 * The VMIDs of workloads (design §7): `vmidBase + 40*index + ordinal`, inside the range Proxmox VE
 * accepts. Pure data and arithmetic, shared by the site's configuration check and the hypervisor's
 * identity derivation.
 */
export const ORDINALS_PER_TENANT = 40;
export const VMID_MIN = 100;
export const VMID_MAX = 999_999_999;

/** Why a VMID base would put some tenant's workload outside Proxmox VE's range, or undefined. */
export function vmidBaseProblem(base: number): string | undefined {
  const lowest = base + ORDINALS_PER_TENANT * MIN_INDEX;
  const highest = base + ORDINALS_PER_TENANT * MAX_INDEX + ORDINALS_PER_TENANT - 1;
  return lowest < VMID_MIN || highest > VMID_MAX
    ? `must keep every workload VMID (base + 40 x index + ordinal) within Proxmox VE's ${VMID_MIN}..${VMID_MAX}`
    : undefined;
}
