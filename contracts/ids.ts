/**
 * Every run's workflow id, by the workflow that runs under it. An id names the object a run works
 * on, so concurrent calls for one object meet in one run; the prefixes are those runs were started
 * under from the first release, kept so a run open across a deploy is still found by its next call.
 */
export const runIds = {
  tenantCreate: (tenant: string) => `tenant-create/${tenant}`,
  tenantDelete: (tenant: string) => `tenant-delete/${tenant}`,
  tenantReconcile: (tenant: string) => `tenant-reconcile/${tenant}`,
  tenantPlan: (tenant: string) => `tenant-plan/${tenant}`,
  reconcileSweep: 'reconcile-sweep',
  reconcileSweepSchedule: 'reconcile-sweep-schedule',
  brokerAccountEnsure: (tenant: string, account: string) => `broker-account/${tenant}/${account}`,
  brokerAccountDelete: (tenant: string, account: string) => `broker-account-delete/${tenant}/${account}`,
  workloadCreate: (tenant: string, name: string) => `workload-create/${tenant}/${name}`,
  workloadDelete: (tenant: string, name: string) => `workload-delete/${tenant}/${name}`,
  recordPut: (tenant: string, name: string) => `record-put/${tenant}/${name}`,
  recordDelete: (tenant: string, name: string) => `record-delete/${tenant}/${name}`,
  /**
   * Concurrent identical calls meet in one run; calls that ask for different things (another
   * address, a restore) run separately and are serialized by the activities' registry locks.
   */
  deviceAddressReserve: (tenant: string, device: string, address?: string) => `device-address/${tenant}/${device}/${address ?? 'lowest'}`,
  deviceAddressRelease: (tenant: string, device: string) => `device-address-release/${tenant}/${device}`,
  deviceMacMove: (tenant: string, device: string, mac: string) => `device-mac/${tenant}/${device}/${mac}`,
  wifiKeyIssue: (tenant: string, name: string, restore: boolean) => `wifi-key/${tenant}/${name}${restore ? '/restore' : ''}`,
  wifiKeyRevoke: (tenant: string, name: string) => `wifi-key-revoke/${tenant}/${name}`,
  admissionWifiKey: (name: string) => `admission-wifi/${name}`,
};
