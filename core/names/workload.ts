/**
 * Names and defaults of a workload (spec: Workload, Limits). A workload's name is a DNS label
 * under the tenant zone, 1-20 lowercase alphanumerics or dashes, never starting or ending with a
 * dash; a record's label is any DNS label (1-63).
 */
// No lookahead for the length: the pattern is published in openapi.yaml, and RE2-style engines
// (Go, Rust clients) and request generators handle only plain patterns.
export const WORKLOAD_NAME = /^[a-z0-9](?:[a-z0-9-]{0,18}[a-z0-9])?$/;
export const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const DEFAULT_CORES = 2;
export const DEFAULT_MEMORY_MB = 2048;

/** The site's tenant account on every workload image: cloud-init gives it the tenant's keys. */
export const LOGIN_USER = 'tenant';

/** The VM's name in the hypervisor: unique across tenants and readable in its UI. */
export function vmName(tenant: string, workload: string): string {
  return `${tenant}-${workload}`;
}

/** `<label>.<zone>`, without the trailing dot (the form answers carry). */
export function fqdnOf(label: string, zone: string): string {
  return `${label}.${zone.replace(/\.$/, '')}`;
}

/** Whose a published object is, its name, and the name it is published as (workloads, records). */
export interface PublishedName {
  tenant: string;
  name: string;
  fqdn: string;
}

export function publishedName(site: { domain: string }, row: { tenant: string; name: string }): PublishedName {
  return { tenant: row.tenant, name: row.name, fqdn: fqdnOf(row.name, `${row.tenant}.${site.domain}`) };
}
