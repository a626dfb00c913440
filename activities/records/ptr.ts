/**
 * Who owns the PTR of a subnet address when several service names point at it (spec: Workload,
 * Record). A workload's own address names the workload; otherwise the earliest record of the
 * address does. The PTR follows that owner as names come and go, and a PTR the tenant wrote with
 * its own key (naming something the service does not publish) is never touched.
 */
export interface NamedAddress {
  name: string;
  address: string;
  createdAt: Date | string;
}

export function ptrOwner(
  address: string,
  names: { workloads: readonly NamedAddress[]; records: readonly NamedAddress[] },
  excluding?: { kind: 'workload' | 'record'; name: string },
): string | undefined {
  const keep = (kind: 'workload' | 'record') => (n: NamedAddress) => n.address === address && !(excluding?.kind === kind && excluding.name === n.name);
  const workload = names.workloads.find(keep('workload'));
  if (workload) return workload.name;
  const records = names.records
    .filter(keep('record'))
    .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || a.name.localeCompare(b.name));
  return records[0]?.name;
}

/** The name a PTR's content points at, as a label of the zone (`web` of `web.acme.lab.example.`); undefined outside the zone. */
export function ptrLabel(content: string, zone: string): string | undefined {
  const target = content.trim().toLowerCase().replace(/\.$/, '');
  const suffix = `.${zone.toLowerCase().replace(/\.$/, '')}`;
  return target.endsWith(suffix) ? target.slice(0, -suffix.length) : undefined;
}

/** Whether a PTR's content names one of the service's names in the zone (else it is the tenant's). */
export function isServicePtr(content: string, zone: string, serviceNames: ReadonlySet<string>): boolean {
  const label = ptrLabel(content, zone);
  return label !== undefined && serviceNames.has(label);
}

export type PtrAction = { kind: 'set'; owner: string } | { kind: 'remove' } | { kind: 'leave' };

/** What to do with the PTR of an address, given the current content (if any) and its owner. */
export function ptrAction(current: string | undefined, owner: string | undefined, zone: string, serviceNames: ReadonlySet<string>): PtrAction {
  const foreign = current !== undefined && !isServicePtr(current, zone, serviceNames);
  if (foreign) return { kind: 'leave' };
  if (owner) return { kind: 'set', owner };
  return current === undefined ? { kind: 'leave' } : { kind: 'remove' };
}
