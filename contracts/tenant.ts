/**
 * The contract between the API and the worker: workflow ids, update definitions and the shapes
 * that cross Temporal. Everything here passes the payload codec; secrets in it are, besides,
 * sealed with the site's secrets key (core/sealed.ts), so the codec alone reveals none.
 */
import type { RunFailure } from '../core/object-life.js';
import { attemptUpdate, type Audited, type Parked } from './attempt.js';
import type { ObjectOutcome } from '../core/backend-outcome.js';
import type { Outcome, TenantSecrets, TenantView } from '../core/tenant-view.js';
import type { Sealed } from '../core/sealed.js';
import type { StepName } from '../core/step-table.js';

export interface RestoreSecrets {
  tsigSecret: string;
  stateSecret: string;
  apiToken: string;
}

export interface CreateRequest extends Audited {
  name: string;
  requestedIndex?: number;
  restore?: Sealed<RestoreSecrets>;
}

export type { Refusal } from '../core/refusal.js';
import type { Refusal } from '../core/refusal.js';

/** `secrets`: what this attempt issued or was given, for the API's answer (tenant views carry none). */
/**
 * `found`, on a restore: what the backends still hold of the tenant that the lost registry held
 * (its workloads' VMs, its broker clients), area by area as a plan reports it: a broker account
 * comes back when the tenant issues it with its password; a lost workload's VM is left to the operator.
 */
export type CreateResult =
  { kind: 'ready'; outcome: Outcome; tenant: TenantView; secrets: Sealed<TenantSecrets>; found?: StepReport[] } | CreateFailed | Refusal;

/** `tenant` is absent when the failure came before the tenant was registered. */
export interface CreateFailed {
  kind: 'failed';
  /** The failed step with the backend's answer (workflows/run-step.ts `answering`). */
  failure?: RunFailure;
  step: StepName;
  tenant?: TenantView;
  secrets?: Sealed<TenantSecrets>;
}

export interface CreateWorkflowInput {
  name: string;
  /** How long a run parked on a failed step waits for the repeat before it ends. */
  parkedTimeoutMs: number;
}

/** One attempt of a create: the API's repeated call is a new attempt of the parked run. */
export const attemptTenantCreate = attemptUpdate<CreateResult, CreateRequest>();

export type DeleteResult = { kind: 'deleted' } | { kind: 'failed'; step: string; failure?: RunFailure } | Refusal;

export interface DeleteInput extends Parked, Audited {
  name: string;
}

/** One delete call: a failed delete parks, and the repeated delete resumes it. */
export const attemptTenantDelete = attemptUpdate<DeleteResult, DeleteInput>();

/** A step of the tenant's, or an area of its objects a reconcile covers (`hypervisor`, `wifi`, `broker`). */
export interface StepReport {
  step: string;
  ok: boolean;
  objects: ObjectOutcome[];
}

/** `secrets`: the log tokens and the dashboard password a reconcile answers. */
export type ReconcileResult =
  | { kind: 'reconciled'; tenant: TenantView; report: StepReport[]; secrets: Sealed<TenantSecrets> }
  | { kind: 'failed'; step: string; tenant: TenantView; report: StepReport[]; secrets: Sealed<TenantSecrets>; failure?: RunFailure }
  | Refusal;

/**
 * A reconcile's plan: what a reconcile would report of each backend object, in the same words
 * (`created`, `corrected` with its fields, `needs-restore`, `unknown`), and nothing written to a
 * backend or the registry. No secret: a plan hands out nothing.
 */
export type PlanResult =
  | { kind: 'planned'; tenant: TenantView; report: StepReport[] }
  | { kind: 'failed'; step: string; tenant: TenantView; report: StepReport[]; failure?: RunFailure }
  | Refusal;

export interface SweepResult {
  tenants: number;
  reconciled: string[];
  failed: string[];
  /**
   * Tenants the sweep left alone, with why: not `ready` (a create or delete to repeat), or found
   * busy or gone when its reconcile started. Retried by the next sweep.
   */
  skipped: { name: string; reason: string }[];
  /** Per tenant, the objects that were not in place (what drifted, or needs attention). */
  corrected: Record<string, string[]>;
  /** `plan` (SITE_SWEEP_MODE=plan): each tenant was planned (`planned`), nothing changed. Absent: `correct`. */
  mode?: 'plan' | 'correct';
  /** In a plan sweep, the tenants planned (`reconciled` stays empty). */
  planned?: string[];
  /** Per tenant reconciled, per step or area, how many objects came to each result (`in-place`, `corrected`, `needs-restore`...). */
  found: Record<string, Record<string, Record<string, number>>>;
  /**
   * The names whose admission expired unused and whose Wi-Fi key the sweep revoked (`failed`: a
   * revoke did not land; the next sweep repeats it). Absent in a plan and in earlier sweeps.
   */
  expiredAdmissions?: { revoked: string[]; failed: boolean };
}
