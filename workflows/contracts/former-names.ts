/**
 * Names that runs begun before issue 20 recorded in their histories, by the workflow that holds
 * them. Such a run still receives its calls, and replays its activities, under these names; new runs
 * use the one name. An entry can go once no run begun before that release can be open (the longest
 * a run stays open is its parked timeout); the replay test holds histories recorded with them.
 */
export const FORMER_UPDATE_NAMES: Readonly<Record<string, string>> = {
  brokerAccountEnsure: 'attemptBrokerAccount',
  recordPut: 'attempt-record-put',
  workloadCreate: 'attempt-workload',
};

/** Activities by their one name, with the name runs begun before scheduled them under. */
export const FORMER_ACTIVITY_NAMES = {
  prepareDeviceAddress: 'allocateDeviceAddress',
  deviceAddressView: 'deviceReservationView',
  prepareWifiKey: 'registerWifiKey',
} as const;
