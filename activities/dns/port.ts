import type { ObjectOutcome } from '../../core/backend-outcome.js';
import type { DnsAdapter } from '../../backends/powerdns/powerdns.js';

/** What the tenant steps and the published names need of the authoritative DNS server (PowerDNS). */
export interface DnsPort extends Pick<DnsAdapter, 'ensureRecord' | 'removeRecord' | 'listRecords' | 'planRecords'> {
  // Beside zones and key: single rrsets for the names the service publishes (workloads, records).
  ensure(spec: { tenant: string; zone: string; reverseZone: string; tsigKeyName: string; tsigAlgorithm: string; tsigSecret: string }): Promise<ObjectOutcome[]>;
  remove(spec: { tenant: string; zone: string; reverseZone: string; tsigKeyName: string }): Promise<void>;
  /** What ensure would report, from reads alone (every port's `plan`: a reconcile's plan writes nothing). */
  plan(spec: { tenant: string; zone: string; reverseZone: string; tsigKeyName: string; tsigAlgorithm: string; tsigSecret: string }): Promise<ObjectOutcome[]>;
}
