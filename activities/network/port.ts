import type { ObjectOutcome } from '../../core/backend-outcome.js';
import type { NetworkAdapter } from '../../backends/proxmox/sdn.js';

/** What the tenant steps need of the fabric (Proxmox VE SDN): the tenant's zone, VNet and subnet. */
export interface NetworkPort extends Pick<NetworkAdapter, 'stage' | 'settle'> {
  ensure(spec: { tenant: string; index: number; vrfVni: number; vnet: string; vnetTag: number; subnet: string; gateway: string }): Promise<ObjectOutcome[]>;
  plan(spec: { tenant: string; index: number; vrfVni: number; vnet: string; vnetTag: number; subnet: string; gateway: string }): Promise<ObjectOutcome[]>;
  /** Indexes carried by fabric zones or VNets, with the tenant zone each belongs to. */
  usedIndexes(): Promise<Map<number, string>>;
  hasZone(name: string): Promise<boolean>;
}
