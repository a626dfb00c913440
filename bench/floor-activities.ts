import type { Activities } from '../activities/index.js';

/** What a real create's activities answered, for the empty bodies to answer the same. */
export interface FloorSample {
  /** `prepareTenant` with the fabric read: `proceed`, with the steps, index and sealed secrets. */
  prepared: Awaited<ReturnType<Activities['prepareTenant']>>;
  /** `finishAttempt`: the tenant's view and its sealed secrets. */
  finished: Awaited<ReturnType<Activities['finishAttempt']>>;
  /** Each step's outcomes, by activity type. */
  steps: Record<string, unknown>;
  /** `network.observe-indexes`. */
  indexes: unknown;
}

type FloorInput = { name?: string; request?: { name: string }; fabric?: unknown; claims?: unknown[] };

/**
 * The empty activities: each answers the sample, for the tenant it was asked about. Every local
 * activity a recorded create makes has one here (test/contract/bench-floor.test.ts): a missing one
 * leaves the floor's creates retrying it until the update's deadline.
 */
export function floorActivities(sample: FloorSample): Record<string, (input?: FloorInput) => Promise<unknown>> {
  const acts: Record<string, (input?: FloorInput) => Promise<unknown>> = {
    // Runs begun with `leases-in-one-call` claim every lease in one local activity and release
    // them with the settle: every lease granted, as on an idle site. The object's claim rides on
    // that call (`claimRun` in its input), so a create has no `claimRun` activity of its own.
    claimLeases: async (input) => ({ granted: input?.claims?.length ?? 1 }),
    releaseLeases: async () => undefined,
    // The run's settle (activities/object-runs.ts), with nothing behind it.
    settleRun: async () => undefined,
    // A new name asks for the fabric first, as a real create of a new tenant does.
    prepareTenant: async (input) => (input?.fabric === undefined ? { kind: 'needs-fabric' } : { ...sample.prepared, name: input.request!.name }),
    'network.observe-indexes': async () => sample.indexes,
    finishAttempt: async (input) => ({ ...sample.finished, tenant: { ...sample.finished.tenant, name: input!.name } }),
  };
  for (const [type, outcomes] of Object.entries(sample.steps)) acts[type] = async () => outcomes;
  return acts;
}

/**
 * The bare floor's counts for a new tenant's create of `steps` steps, as a recorded create runs
 * them: two local activities before its first activity (the leases with the run's claim, the
 * registration asking for the fabric), the fabric read and one activity per step, then three (the
 * registration, the attempt's finish, the run's settle with the leases' release).
 * test/contract/bench-floor.test.ts holds it to this release's recorded creates.
 */
export const createShape = (steps: number) => ({ localsBefore: 2, activities: steps + 1, localsAfter: 3 });
