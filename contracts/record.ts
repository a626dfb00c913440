import type { RunFailure } from '../core/object-life.js';
import type { Refusal } from '../core/refusal.js';
/** The contract between the API and the worker for records (published names). */
import { attemptUpdate, type Parked } from './attempt.js';
import type { RecordView } from '../core/views/record.js';

export interface RecordPutRequest {
  tenant: string;
  name: string;
  address: string;
  actor: string;
}

export type RecordPutResult = { kind: 'done'; record: RecordView } | { kind: 'failed'; step: 'dns'; failure?: RunFailure } | Refusal;

export interface RecordDeleteRequest {
  tenant: string;
  name: string;
  actor: string;
}

export type RecordDeleteResult = { kind: 'deleted' } | { kind: 'failed'; step: 'dns'; failure?: RunFailure } | Refusal;

export interface RecordWorkflowInput extends Parked {
  tenant: string;
  name: string;
}

/** One PUT call: puts of one name run one after another in its workflow, so the last one wins. */
export const attemptRecordPut = attemptUpdate<RecordPutResult, RecordPutRequest>();

/** One delete call: a failed delete parks, and the repeated delete resumes it. */
export const attemptRecordDelete = attemptUpdate<RecordDeleteResult, RecordDeleteRequest>();
