import type { Site } from '../../core/site.js';
import type { WorkloadRow, WorkloadStatus } from '../../db/queries/workloads.js';
import { publishedName, type PublishedName } from './names.js';
import { stamps, type Stamps } from '../../core/wire-time.js';

/** The workload object of the wire contract (spec: Workload). Nothing in it is secret. */
export interface WorkloadView extends PublishedName, Stamps {
  status: WorkloadStatus;
  ordinal: number;
  vmid: number;
  cores: number;
  memory_mb: number;
  disk_gb: number;
  mac: string;
  address: string;
  login_user: string;
}

export function viewWorkload(site: Pick<Site, 'domain'>, row: WorkloadRow): WorkloadView {
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
