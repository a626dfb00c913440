/**
 * What the workflow code keeps for runs begun on other code, and the release whose runs need it
 * (docs/decisions.md, "Releases: pinned runs, and the code kept for runs begun before").
 *
 * From 0.15 every run is pinned to the worker build that began it (Worker Versioning), so a
 * release's code replays only its own runs: a change to a workflow's commands needs no patch. The
 * runs begun on 0.14's unversioned workers are the exception: they move to the first versioned
 * release when it becomes current, so 0.15 keeps what replays them, and 0.16 removes it.
 * test/contract/release-rule.test.ts fails when an entry serves a release this tree no longer replays.
 */

/** The first release whose workers run as versions of a Worker Deployment, and the last whose did not. */
export const FIRST_VERSIONED_RELEASE = '0.15';
export const LAST_UNVERSIONED_RELEASE = '0.14';

/**
 * The releases whose runs the code of release `tree` replays: its own (a worker replays a run it
 * no longer holds in its cache), and for the first versioned release the unversioned one's too,
 * whose runs move to it when it becomes current. From then on a run never leaves its version.
 */
export function releasesReplayed(tree: string): string[] {
  return tree === FIRST_VERSIONED_RELEASE ? [LAST_UNVERSIONED_RELEASE, tree] : [tree];
}

/**
 * Every patch the workflows check (through workflows/patches.ts), with the release whose runs need
 * it. `branch`: runs of that release lack the marker and take the old branch (`patched()`).
 * `marker`: the old branch is gone, but every run of that release carries the marker where it
 * reached the patch, and a marker no code reads is a nondeterminism error (`deprecatePatch()`).
 */
export const PATCHES = {
  'prepare-names': { runsOf: '0.14', kept: 'branch' },
  'restore-report-without-wifi': { runsOf: '0.14', kept: 'branch' },
  'release-after-failed-claim': { runsOf: '0.14', kept: 'branch' },
  'admission-expiry': { runsOf: '0.14', kept: 'branch' },
  'join-settled-answer': { runsOf: '0.14', kept: 'branch' },
  'object-runs': { runsOf: '0.14', kept: 'branch' },
  'lease-poll-backoff': { runsOf: '0.14', kept: 'branch' },
  'leases-in-one-call': { runsOf: '0.14', kept: 'branch' },
  'run-model': { runsOf: '0.14', kept: 'marker' },
  'reconcile-objects': { runsOf: '0.14', kept: 'marker' },
  'restore-report': { runsOf: '0.14', kept: 'marker' },
} as const;

type Kept<K extends 'branch' | 'marker'> = { [P in keyof typeof PATCHES]: (typeof PATCHES)[P]['kept'] extends K ? P : never }[keyof typeof PATCHES];
export type PatchId = Kept<'branch'>;
export type DeprecatedPatchId = Kept<'marker'>;

/**
 * Activities a run of an earlier release calls by a former name, with the name that answers now:
 * the worker registers each under both. `registerTenant` is a local activity, so a 0.14 create
 * that moves to 0.15 and replays without `prepare-names` schedules it under that name in 0.15's worker.
 */
export const FORMER_ACTIVITY_NAMES = {
  registerTenant: { now: 'prepareTenant', runsOf: '0.14' },
} as const;
