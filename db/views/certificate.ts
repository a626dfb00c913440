import { certificateDnsNames, tenantZone } from '../../core/names/certificate-labels.js';
import type { CertificateView } from '../../core/views/certificate.js';
import type { CertificateRow } from '../queries/certificates.js';

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
