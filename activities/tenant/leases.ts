import { claimTenant, releaseHeld, releaseTenant, type LeaseClaim, type LeaseMode } from '../../db/queries/tenant-leases.js';
import { claimCallingRun, leaseHolder as holder } from '../object-runs.js';
import type { ActivityDeps } from '../deps.js';

/** One lease a run asks for: its tenant's, or a name's on it (`<tenant>/<name>`). */
export interface LeaseWanted {
  tenant: string;
  mode: LeaseMode;
}

/** How far a run's claims got: the first `granted` are held, and the next is held by `heldBy`. */
export interface LeasesClaimed {
  granted: number;
  heldBy?: string;
}

/** Claiming and releasing a tenant for the calling run (db/queries/tenant-leases.ts). */
export function leaseActivities(deps: ActivityDeps) {
  return {
    claimTenant: (input: { tenant: string; mode: LeaseMode; operation: string }): Promise<LeaseClaim> => claimTenant(deps.db, { ...input, holder: holder() }),
    releaseTenant: (input: { tenant: string }): Promise<void> => releaseTenant(deps.db, input.tenant, holder()),
    /**
     * The run's leases in order (its tenant, then its name), each claimed only once the one before
     * is held, and with the first one held the run's claim on its object (`claimRun`): what were a
     * local activity each, one now (workflows/tenant-lease.ts). Claiming again is a renewal, so a
     * retry after a partial grant is harmless.
     */
    claimLeases: async (input: { claims: LeaseWanted[]; operation: string; claimRun?: boolean }): Promise<LeasesClaimed> => {
      const by = holder();
      let granted = 0;
      let heldBy: string | undefined;
      for (const c of input.claims) {
        const claim = await claimTenant(deps.db, { ...c, operation: input.operation, holder: by });
        if (!claim.granted) {
          heldBy = claim.heldBy;
          break;
        }
        granted++;
      }
      if (granted > 0 && input.claimRun) await claimCallingRun(deps);
      return heldBy === undefined ? { granted } : { granted, heldBy };
    },
    /** Every lease the calling run holds, in one statement. */
    releaseLeases: (): Promise<void> => releaseHeld(deps.db, holder()),
  };
}
