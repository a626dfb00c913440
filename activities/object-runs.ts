import { Context } from '@temporalio/activity';
import { objectOfRun } from '../contracts/ids.js';
import type { RunFailure, RunState } from '../core/object-life.js';
import { operationOf } from '../core/search-attributes.js';
import { claimObject, settleObject, type RunOf } from '../db/queries/object-runs.js';
import { releaseHeld } from '../db/queries/tenant-leases.js';
import { seal } from '../db/seal.js';
import { callDigest } from '../core/call-digest.js';
import type { ActivityDeps } from './deps.js';

/**
 * What a run writes of its object's life (core/object-life.ts), from the machinery every run
 * answers through (workflows/run-step.ts `answering`): the claim when an attempt begins, and how
 * it ended. Local activities, run by the worker in the run's own workflow task.
 */

/** How long an attempt in flight claims its object: past every bound of an attempt (its lease wait, a slow fabric). */
export const IN_FLIGHT_CLAIM_MS = 3 * 3600_000;
/** A parked run gives up at its parked timeout; its claim outlasts that, for a run ended by hand. */
const PARKED_CLAIM_MARGIN_MS = 15 * 60_000;

/** The calling run, as the tenant leases it holds name it (db/queries/tenant-leases.ts): a lease is held by one run of one workflow. */
export function leaseHolder(): string {
  const run = Context.current().info.workflowExecution;
  if (!run) throw new Error('a tenant lease is claimed from a workflow run');
  return `${run.workflowId}/${run.runId}`;
}

/** The calling run and the object it works on; undefined for a run of no one object (a plan, the sweep). */
function callingRun(): RunOf | undefined {
  const info = Context.current().info;
  const run = info.workflowExecution;
  const object = run ? objectOfRun(run.workflowId) : undefined;
  if (!run || !object) return undefined;
  return { ...object, workflowId: run.workflowId, runId: run.runId, operation: operationOf(info.workflowType ?? '') };
}

export interface RunSettled {
  state: Exclude<RunState, 'in-flight'>;
  failure?: RunFailure;
  parkedMs?: number;
  /**
   * A success a caller must not lose (it may carry secrets, sealed): kept sealed for a repeat of
   * `request`, the call it answered (core/call-digest.ts).
   */
  answer?: { id: string; value: unknown; request?: unknown };
  removed?: boolean;
  /** And every lease the run holds released after it, by the same local activity (workflows/tenant-lease.ts). */
  releaseLeases?: boolean;
}

/** The calling run's claim on its object while an attempt is in flight (none for a run of no one object). */
export async function claimCallingRun(deps: Pick<ActivityDeps, 'db'>): Promise<void> {
  const run = callingRun();
  if (run) await claimObject(deps.db, run, IN_FLIGHT_CLAIM_MS);
}

export function objectRunActivities(deps: ActivityDeps) {
  return {
    claimRun: (): Promise<void> => claimCallingRun(deps),
    settleRun: async (s: RunSettled): Promise<void> => {
      await settle(deps, s);
      if (s.releaseLeases) await releaseHeld(deps.db, leaseHolder());
    },
  };
}

async function settle(deps: ActivityDeps, s: RunSettled): Promise<void> {
  const run = callingRun();
  if (!run) return;
  await settleObject(deps.db, run, {
    state: s.state,
    ...(s.failure ? { failure: s.failure } : {}),
    ...(s.state === 'parked' ? { claimMs: (s.parkedMs ?? 0) + PARKED_CLAIM_MARGIN_MS } : {}),
    ...(s.answer ? { answer: { id: s.answer.id, sealed: seal(deps.keys, JSON.stringify(s.answer.value)), requestHash: callDigest(s.answer.request) } } : {}),
    ...(s.removed ? { removed: true } : {}),
  });
}
