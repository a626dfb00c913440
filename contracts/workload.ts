/**
 * The contract between the API and the worker for workloads: workflow ids, the update that
 * carries each create, and the shapes that cross Temporal (all through the payload codec).
 */
import type { RunFailure } from '../core/object-life.js';
import type { Refusal } from '../core/refusal.js';
import { attemptUpdate, type Parked } from './attempt.js';
import type { WorkloadView } from '../core/views/workload.js';
import type { PublishStep } from '../core/step-table.js';

export interface WorkloadRequest {
  tenant: string;
  name: string;
  cores: number;
  memoryMb: number;
  /** Absent: the template's size (new) or the current size (repeat). */
  diskGb?: number;
  /** Absent on a repeat: the keys stay as written at first boot. */
  sshKeys?: string[];
  /** Who asked, for the audit log. */
  actor: string;
}

export type WorkloadResult =
  | { kind: 'done'; workload: WorkloadView }
  /** `workload` is absent when the failure came before the workload was registered. */
  | { kind: 'failed'; step: PublishStep; workload?: WorkloadView; failure?: RunFailure }
  | Refusal;

export interface WorkloadWorkflowInput extends Parked {
  tenant: string;
  name: string;
}

/** One create call: attempts of one workload run one after another in its workflow. */
export const attemptWorkloadCreate = attemptUpdate<WorkloadResult, WorkloadRequest>();

export type WorkloadDeleteResult = { kind: 'deleted' } | { kind: 'failed'; step: PublishStep; failure?: RunFailure } | Refusal;

export interface WorkloadDeleteRequest {
  tenant: string;
  name: string;
  actor: string;
}

/** One delete call: a failed delete parks, and the repeated delete resumes it. */
export const attemptWorkloadDelete = attemptUpdate<WorkloadDeleteResult, WorkloadDeleteRequest>();
