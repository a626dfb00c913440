import type { CertificateRow } from '../../db/queries/certificates.js';
import { certificateDnsNames, tenantZone } from './labels.js';

/** A tenant certificate on the wire; everything in it is public. */
export interface CertificateView {
  name: string;
  fqdn: string;
  names: string[];
  dns_names: string[];
  certificate: string;
  chain: string;
  not_before: string;
  not_after: string;
  serial: string;
  created_at: string;
}

export function viewCertificate(siteDomain: string, row: CertificateRow): CertificateView {
  const dnsNames = certificateDnsNames(row.name, tenantZone(row.tenant, siteDomain), row.names);
  return {
    name: row.name,
    fqdn: dnsNames[0]!,
    names: row.names,
    dns_names: dnsNames,
    certificate: row.certificatePem,
    chain: row.chainPem,
    not_before: row.notBefore.toISOString(),
    not_after: row.notAfter.toISOString(),
    serial: row.serial,
    created_at: row.createdAt.toISOString(),
  };
}
