/**
 * The contract between the API and the worker: workflow ids, update definitions and the shapes
 * that cross Temporal. Everything here passes the payload codec, so secrets in it are encrypted.
 */
import { defineUpdate } from '@temporalio/workflow';
import type { ObjectOutcome } from '../activities/ensure.js';
import type { Outcome, StepName, TenantView } from '../activities/tenant/view.js';

export const DEFAULT_TASK_QUEUE = 'provisioning';

export const workflowIds = {
  create: (tenant: string) => `tenant-create/${tenant}`,
  delete: (tenant: string) => `tenant-delete/${tenant}`,
  reconcile: (tenant: string) => `tenant-reconcile/${tenant}`,
  sweep: 'reconcile-sweep',
  sweepSchedule: 'reconcile-sweep-schedule',
};

export interface RestoreSecrets {
  tsigSecret: string;
  stateSecret: string;
  apiToken: string;
}

export interface CreateRequest {
  name: string;
  requestedIndex?: number;
  restore?: RestoreSecrets;
}

export type Refusal = { kind: 'refused'; error: 'conflict' | 'not_found'; message: string };

export type CreateResult =
  | { kind: 'ready'; outcome: Outcome; tenant: TenantView }
  /** `tenant` is absent when the failure came before the tenant was registered. */
  | { kind: 'failed'; step: StepName; tenant?: TenantView }
  | Refusal;

export interface CreateWorkflowInput {
  name: string;
  /** How long a run parked on a failed step waits for the repeat before it ends. */
  parkedTimeoutMs: number;
}

/** One attempt of a create: the API's repeated call is a new attempt of the parked run. */
export const attemptCreate = defineUpdate<CreateResult, [CreateRequest]>('attempt');

export type DeleteResult = { kind: 'deleted' } | { kind: 'failed'; step: string } | Refusal;

export interface StepReport {
  step: StepName;
  ok: boolean;
  objects: ObjectOutcome[];
}

export type ReconcileResult =
  | { kind: 'reconciled'; tenant: TenantView; report: StepReport[] }
  | { kind: 'failed'; step: StepName; tenant: TenantView; report: StepReport[] }
  | Refusal;

export interface SweepResult {
  tenants: number;
  reconciled: string[];
  failed: string[];
  /** Per tenant, the objects that were created or corrected (what drifted). */
  corrected: Record<string, string[]>;
}
