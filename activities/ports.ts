import type { BrokerAdapter } from './broker/dynsec.js';
import type { CertificateIssuer } from '../core/certificate-issuer.js';
import type { DeviceAddressAdapter } from './devices/address-adapter.js';
import type { ObjectOutcome } from '../core/backend-outcome.js';
import type { HypervisorAdapter } from './hypervisor/proxmox.js';
import type { DnsAdapter } from './dns/powerdns.js';
import type { NetworkAdapter } from './network/proxmox.js';
import type { WifiAdapter } from './wifi/adapter.js';

/**
 * What the tenant steps need of each backend. The worker binds these to the product adapters
 * (PowerDNS, Recursor, MinIO, Proxmox, the log store, Grafana); tests bind the same adapters to
 * real servers and simulators.
 */
export interface DnsPort extends Pick<DnsAdapter, 'ensureRecord' | 'removeRecord' | 'listRecords' | 'planRecords'> {
  // Beside zones and key: single rrsets for the names the service publishes (workloads, records).
  ensure(spec: { tenant: string; zone: string; reverseZone: string; tsigKeyName: string; tsigAlgorithm: string; tsigSecret: string }): Promise<ObjectOutcome[]>;
  remove(spec: { tenant: string; zone: string; reverseZone: string; tsigKeyName: string }): Promise<void>;
  /** What ensure would report, from reads alone (every port's `plan`: a reconcile's plan writes nothing). */
  plan(spec: { tenant: string; zone: string; reverseZone: string; tsigKeyName: string; tsigAlgorithm: string; tsigSecret: string }): Promise<ObjectOutcome[]>;
}

export interface ResolverPort {
  ensure(spec: { zones: string[] }): Promise<ObjectOutcome[]>;
  plan(spec: { zones: string[] }): Promise<ObjectOutcome[]>;
  remove(spec: { zones: string[] }): Promise<void>;
}

export interface StatePort {
  ensure(spec: { tenant: string; accessKey: string; secretKey: string; prefix: string }): Promise<ObjectOutcome[]>;
  plan(spec: { tenant: string; accessKey: string; secretKey: string; prefix: string }): Promise<ObjectOutcome[]>;
  remove(spec: { tenant: string; accessKey: string }): Promise<void>;
}

export interface NetworkPort extends Pick<NetworkAdapter, 'stage' | 'settle'> {
  ensure(spec: { tenant: string; index: number; vrfVni: number; vnet: string; vnetTag: number; subnet: string; gateway: string }): Promise<ObjectOutcome[]>;
  plan(spec: { tenant: string; index: number; vrfVni: number; vnet: string; vnetTag: number; subnet: string; gateway: string }): Promise<ObjectOutcome[]>;
  /** Indexes carried by fabric zones or VNets, with the tenant zone each belongs to. */
  usedIndexes(): Promise<Map<number, string>>;
  hasZone(name: string): Promise<boolean>;
}

export interface LogStorePort {
  ensure(spec: { tenant: string; accountId: number; ingestToken: string; readToken: string }): Promise<ObjectOutcome[]>;
  plan(spec: { tenant: string; accountId: number; ingestToken: string; readToken: string }): Promise<ObjectOutcome[]>;
  /** The tokens the gateway admits for a tenant (what a restore adopts), if it holds them. */
  heldTokens(tenant: string): Promise<{ ingestToken: string; readToken: string } | undefined>;
  remove(spec: { tenant: string }): Promise<void>;
}

export interface DashboardsPort {
  /** Without a password the existing login is adopted as it is. */
  ensure(spec: {
    tenant: string;
    username: string;
    password?: string;
    accountId: number;
    readToken: string;
  }): Promise<{ orgId: number; outcomes: ObjectOutcome[] }>;
  plan(spec: { tenant: string; username: string; password?: string; accountId: number; readToken: string }): Promise<ObjectOutcome[]>;
  loginExists(username: string): Promise<boolean>;
  remove(spec: { tenant: string; username: string }): Promise<void>;
}

export interface BackendPorts {
  dns: DnsPort;
  resolver: ResolverPort;
  state: StatePort;
  network: NetworkPort;
  logStore?: LogStorePort;
  dashboards?: DashboardsPort;
  /** Workloads (VMs) and the records published for them. */
  hypervisor: HypervisorAdapter;
  /** Optional backends: absent at a site that has none (their routes refuse with a reason). */
  wifi?: WifiAdapter;
  deviceAddress?: DeviceAddressAdapter;
  broker?: BrokerAdapter;
  ca?: CertificateIssuer;
}
