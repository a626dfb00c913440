import { type PublishedName } from '../names/workload.js';
import { type Stamps } from '../wire-time.js';

export type WorkloadStatus = 'provisioning' | 'ready' | 'deleting';

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
