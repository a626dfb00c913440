/**
 * The contract between the API and the worker for Wi-Fi keys: the shapes that cross Temporal
 * (through the payload codec; a psk in them is sealed besides).
 */
import type { RunFailure } from '../core/object-life.js';
import type { Refusal } from '../core/refusal.js';
import type { BackendStep } from '../core/step-table.js';
import type { SealedWifiKey } from '../core/views/wifi-key.js';
import type { Sealed } from '../core/sealed.js';
import { attemptUpdate, type Audited, type Parked } from './attempt.js';

export interface IssueKeyInput extends Parked, Audited {
  tenant: string;
  name: string;
  trustClass: string;
  /** Only to restore a key the tenant holds; sealed on its way through Temporal. */
  psk?: Sealed<string>;
}

export type IssueKeyResult = { kind: 'done'; key: SealedWifiKey } | { kind: 'failed'; step: BackendStep; key?: SealedWifiKey; failure?: RunFailure } | Refusal;

export type RevokeKeyResult = { kind: 'revoked' } | { kind: 'failed'; step: BackendStep; failure?: RunFailure } | Refusal;

export interface AdmissionKeyInput extends Parked {
  name: string;
  /** Lowercase colon form: binds the key to one client. */
  mac?: string;
}

export type AdmissionKeyResult = { kind: 'done'; key: SealedWifiKey } | { kind: 'failed'; step: BackendStep; key?: SealedWifiKey; failure?: RunFailure };

export interface RevokeKeyInput extends Parked, Audited {
  tenant: string;
  name: string;
}

/** One call to a Wi-Fi key's run: a failed one parks, and the repeated call resumes it. */
export const attemptWifiKeyIssue = attemptUpdate<IssueKeyResult, IssueKeyInput>();
export const attemptWifiKeyRevoke = attemptUpdate<RevokeKeyResult, RevokeKeyInput>();
export const attemptAdmissionWifiKey = attemptUpdate<AdmissionKeyResult, AdmissionKeyInput>();
