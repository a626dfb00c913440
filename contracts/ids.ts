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
  /** One check at a time: the schedule's and an operator's meet in one run (workflows/isolation-check.ts). */
  isolationCheck: 'isolation-check',
  isolationCheckSchedule: 'isolation-check-schedule',
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

/**
 * The paths objects are named by (below `/v1/`), as `objectOfRun` names them: what the registry's
 * runs (db/schema/object-runs.ts) and every reader of an object's life (reads, reconcile, plan,
 * prune) look an object up by.
 */
export const objectPath = {
  tenant: (t: string) => `tenants/${t}`,
  workload: (t: string, name: string) => `tenants/${t}/workloads/${name}`,
  record: (t: string, name: string) => `tenants/${t}/records/${name}`,
  deviceAddress: (t: string, device: string) => `tenants/${t}/devices/${device}/address`,
  wifiKey: (t: string, name: string) => `tenants/${t}/wifi-keys/${name}`,
  brokerAccount: (t: string, name: string) => `tenants/${t}/broker-accounts/${name}`,
};

/**
 * The object a run works on, named as kept answers and reads name it: its path below `/v1/`
 * (`tenants/acme/workloads/web`). Undefined for runs that change no one object (a plan, the
 * sweep): they record nothing of an object's life (core/object-life.ts).
 */
export function objectOfRun(workflowId: string): { object: string; tenant: string } | undefined {
  const [kind, tenant, name] = workflowId.split('/');
  if (!tenant) return undefined;
  const under = (collection: string) => (name ? { object: `tenants/${tenant}/${collection}/${name}`, tenant } : undefined);
  switch (kind) {
    case 'tenant-create':
    case 'tenant-delete':
    case 'tenant-reconcile':
      return { object: `tenants/${tenant}`, tenant };
    case 'broker-account':
    case 'broker-account-delete':
      return under('broker-accounts');
    case 'workload-create':
    case 'workload-delete':
      return under('workloads');
    case 'record-put':
    case 'record-delete':
      return under('records');
    case 'device-address':
    case 'device-address-release':
    case 'device-mac':
      return name ? { object: `tenants/${tenant}/devices/${name}/address`, tenant } : undefined;
    case 'wifi-key':
    case 'wifi-key-revoke':
      return under('wifi-keys');
    case 'admission-wifi':
      return { object: `tenants/${tenant}/wifi-keys/admission`, tenant };
    default:
      return undefined;
  }
}
