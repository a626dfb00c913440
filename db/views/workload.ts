import type { CoreSite } from '../../core/site.js';
import type { WorkloadStatus, WorkloadView } from '../../core/views/workload.js';
import { publishedName } from '../../core/names/workload.js';
import { stamps } from '../../core/wire-time.js';
import type { WorkloadRow } from '../queries/workloads.js';

/** A workload row as the wire shows it (core/views/workload.ts). */
export function viewWorkload(site: Pick<CoreSite, 'domain'>, row: WorkloadRow): WorkloadView {
  return {
    ...publishedName(site, row),
    status: row.status as WorkloadStatus,
    ordinal: row.ordinal,
    vmid: row.vmid,
    cores: row.cores,
    memory_mb: row.memoryMb,
    disk_gb: row.diskGb ?? 0,
    mac: row.mac,
    address: row.address,
    login_user: row.loginUser,
    ...stamps(row),
  };
}
