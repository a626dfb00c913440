import { deprecatePatch, patched } from '@temporalio/workflow';
import type { DeprecatedPatchId, PatchId } from '../contracts/compatibility.js';

/**
 * The only place the workflows call `patched()` and `deprecatePatch()`, so every patch is one of
 * contracts/compatibility.ts, named with the release whose runs need it, and removed once that
 * release's runs can no longer replay here (test/contract/release-rule.test.ts).
 */

/** Whether this run began on code with the patch: runs of the release the patch names lack it. */
export const begunWith = (patch: PatchId): boolean => patched(patch);

/**
 * A patch every run that can still replay here began with: its marker is in their histories, and a
 * marker no code reads is a nondeterminism error, so it is read where `patched()` stood, with no
 * branch left behind it.
 */
export const deprecated = (patch: DeprecatedPatchId): void => deprecatePatch(patch);
