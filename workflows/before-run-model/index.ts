import { patched } from '@temporalio/workflow';

/**
 * Runs begun before the run model (issue 25) replay the workflow code they began with: the
 * bodies in this folder, frozen as they were, reached when a history has no `run-model` marker.
 * New runs record the marker and take today's code. The folder goes with the former names
 * (contracts/former-names.ts) one release after no such run can be open.
 */
export const RUN_MODEL_PATCH = 'run-model';

export const beganBeforeRunModel = (): boolean => !patched(RUN_MODEL_PATCH);

export { workloadCreate } from './workload-create.js';
export { workloadDelete } from './workload-delete.js';
export { recordPut } from './record-put.js';
export { recordDelete } from './record-delete.js';
export { deviceAddressReserve, deviceAddressRelease, deviceMacMove } from './device-address.js';
export { wifiKeyIssue, wifiKeyRevoke, admissionWifiKey } from './wifi-keys.js';
export { brokerAccountEnsure } from './broker-account-ensure.js';
export { brokerAccountDelete } from './broker-account-delete.js';
