/**
 * Names that runs begun before a rename recorded in their histories. Such a run still receives its
 * calls, and replays its activities, under these names; new runs use the one name. An entry can go
 * once no run begun before its release can be open (the longest a run stays open is its parked
 * timeout, `PARKED_RUN_TIMEOUT`, 24 h by default); the replay test holds histories recorded with them.
 *
 * - issue 20 (the `one-name` patch): the update and three registry activities got one name each;
 *   goes with the release after 0.12.
 * - issue 25 (the `run-model` patch): every backend step activity is named `<area>.<verb>`;
 *   goes with the release after 0.13, together with `workflows/before-run-model/`.
 * - issue 30 (the `prepare-names` patch): `registerTenant` became `prepareTenant` (the names
 *   table's `prepare<Object>`); goes with the release after 0.14.
 */
export const FORMER_UPDATE_NAMES: Readonly<Record<string, string>> = {
  brokerAccountEnsure: 'attemptBrokerAccount',
  recordPut: 'attempt-record-put',
  workloadCreate: 'attempt-workload',
};

/** Before `one-name` (issue 20): the activity's name then, by its name until issue 25. */
export const BEFORE_ONE_NAME = {
  prepareDeviceAddress: 'allocateDeviceAddress',
  deviceAddressView: 'deviceReservationView',
  prepareWifiKey: 'registerWifiKey',
} as const;

/**
 * Every former activity name, with the activity that now answers it. The worker registers each
 * activity under these names too, for activity tasks still queued under them and for runs begun
 * before `run-model`, which keep scheduling them (workflows/before-run-model/).
 */
export const FORMER_ACTIVITY_NAMES = {
  registerTenant: 'prepareTenant',
  allocateDeviceAddress: 'device-address.prepare',
  deviceReservationView: 'deviceAddressView',
  registerWifiKey: 'prepareWifiKey',
  prepareDeviceAddress: 'device-address.prepare',
  workloadNameFree: 'dns.check-name',
  recordNameFree: 'dns.check-name',
  workloadTemplateDisk: 'hypervisor.template-disk',
  ensureWorkloadVm: 'hypervisor.ensure-vm',
  publishWorkloadNames: 'dns.publish-workload',
  removeWorkloadVm: 'hypervisor.remove-vm',
  unpublishWorkloadNames: 'dns.unpublish-workload',
  publishRecord: 'dns.publish-record',
  unpublishRecord: 'dns.unpublish-record',
  applyDeviceAddress: 'device-address.apply',
  releaseDeviceAddress: 'device-address.release',
  ensureWifiKey: 'wifi.ensure-key',
  revokeWifiKey: 'wifi.revoke-key',
  ensureBrokerAccount: 'broker.ensure-account',
  removeBrokerAccount: 'broker.remove-account',
} as const;
