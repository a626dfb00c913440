/**
 * The contract between the API and the worker for device addresses: the shapes that cross
 * Temporal (through the payload codec). The spec calls what a reserve answers a reservation.
 */
import type { RunFailure } from '../core/object-life.js';
import type { Refusal } from '../core/refusal.js';
import type { BackendStep } from '../core/step-table.js';
import type { DeviceAddressView } from '../core/views/device.js';
import { attemptUpdate, type Audited, type Parked } from './attempt.js';

export type { BackendStep } from '../core/step-table.js';

export interface ReserveInput extends Parked, Audited {
  tenant: string;
  device: string;
  address?: string;
}

export type ReserveResult =
  | { kind: 'done'; reservation: DeviceAddressView }
  /** `reservation` is absent when the failure came before an address was chosen. */
  | { kind: 'failed'; step: BackendStep; reservation?: DeviceAddressView; failure?: RunFailure }
  | Refusal;

export type ReleaseResult = { kind: 'released' } | { kind: 'failed'; step: BackendStep; reservation?: DeviceAddressView; failure?: RunFailure } | Refusal;

/** A device's address brought to its current registry state (a MAC moved). */
export type SyncResult = { kind: 'done' } | { kind: 'failed'; step: BackendStep; failure?: RunFailure } | Refusal;

/** A release, or a device's MAC moved: one device of one tenant. */
export interface DeviceInput extends Parked, Audited {
  tenant: string;
  device: string;
}

/** One call to a device address's run: a failed one parks, and the repeated call resumes it. */
export const attemptDeviceAddressReserve = attemptUpdate<ReserveResult, ReserveInput>();
export const attemptDeviceAddressRelease = attemptUpdate<ReleaseResult, DeviceInput>();
export const attemptDeviceMacMove = attemptUpdate<SyncResult, DeviceInput>();
