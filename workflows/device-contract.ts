/**
 * The contract between the API and the worker for devices, fixed addresses and Wi-Fi keys:
 * workflow ids and the shapes that cross Temporal (all pass the payload codec; a psk is sealed too).
 */
import type { Refusal } from '../core/refusal.js';
import type { BackendStep } from '../activities/devices/backend.js';
import type { DeviceAddressView } from '../activities/devices/view.js';
import type { SealedWifiKey } from '../activities/wifi/key-view.js';
import type { Sealed } from '../core/sealed.js';

export type { BackendStep } from '../activities/devices/backend.js';

/**
 * Concurrent identical calls meet in one execution; calls that ask for different things (another
 * address, a restore) run separately and are serialized by the activities' registry locks.
 */
export const deviceWorkflowIds = {
  reserve: (tenant: string, device: string, address?: string) => `device-address/${tenant}/${device}/${address ?? 'lowest'}`,
  release: (tenant: string, device: string) => `device-address-release/${tenant}/${device}`,
  move: (tenant: string, device: string, mac: string) => `device-mac/${tenant}/${device}/${mac}`,
  issueKey: (tenant: string, name: string, restore: boolean) => `wifi-key/${tenant}/${name}${restore ? '/restore' : ''}`,
  revokeKey: (tenant: string, name: string) => `wifi-key-revoke/${tenant}/${name}`,
  admissionKey: (name: string) => `admission-wifi/${name}`,
};


export interface ReserveInput {
  tenant: string;
  device: string;
  address?: string;
}

export type ReserveResult =
  | { kind: 'done'; reservation: DeviceAddressView }
  /** `reservation` is absent when the failure came before an address was chosen. */
  | { kind: 'failed'; step: BackendStep; reservation?: DeviceAddressView }
  | Refusal;

export type ReleaseResult = { kind: 'released' } | { kind: 'failed'; step: BackendStep; reservation?: DeviceAddressView } | Refusal;

/** A device's reservation brought to its current registry state (a MAC moved). */
export type SyncResult = { kind: 'done' } | { kind: 'failed'; step: BackendStep } | Refusal;

export interface IssueKeyInput {
  tenant: string;
  name: string;
  trustClass: string;
  /** Only to restore a key the tenant holds; sealed on its way through Temporal. */
  psk?: Sealed<string>;
}

export type IssueKeyResult =
  | { kind: 'done'; key: SealedWifiKey }
  | { kind: 'failed'; step: BackendStep; key?: SealedWifiKey }
  | Refusal;

export type RevokeKeyResult = { kind: 'revoked' } | { kind: 'failed'; step: BackendStep } | Refusal;

export interface AdmissionKeyInput {
  name: string;
  /** Lowercase colon form: binds the key to one client. */
  mac?: string;
}

export type AdmissionKeyResult = { kind: 'done'; key: SealedWifiKey } | { kind: 'failed'; step: BackendStep; key?: SealedWifiKey };
