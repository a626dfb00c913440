import { z } from '@hono/zod-openapi';
import { certificateLabelReason, CERTIFICATE_NAME } from '../../../core/names/certificate-labels.js';
import { DateTime, dnsLabel, listOf, TenantName } from './common.js';

export const CertificateParams = z.object({
  t: TenantName.openapi({ param: { name: 't', in: 'path' } }),
  certificate: dnsLabel(CERTIFICATE_NAME, `must match ${CERTIFICATE_NAME.source}`, certificateLabelReason).openapi({
    param: { name: 'certificate', in: 'path' },
    example: 'web',
  }),
});

export const CertificateRequest = z
  .strictObject({
    // The pattern is what fromPem requires of the one PEM block (either CSR label); the parser keeps the messages.
    csr: z.string().openapi({
      pattern: '-----BEGIN (NEW )?CERTIFICATE REQUEST-----[\\s\\S]*-----END (NEW )?CERTIFICATE REQUEST-----',
      description: 'PEM PKCS#10 request, self-signed by an RSA (2048 bits or more) or ECDSA P-256 key; only its key is used',
    }),
    names: z.array(z.string()).optional().openapi({ description: 'further labels in the tenant zone (never names: the zone is appended)' }),
  })
  .openapi('CertificateRequest');

export const Certificate = z
  .object({
    name: z.string(),
    fqdn: z.string().openapi({ description: '`<certificate>.<tenant>.<site domain>`, the common name' }),
    names: z.array(z.string()).openapi({ description: 'the further labels, as asked' }),
    dns_names: z.array(z.string()).openapi({ description: 'every DNS name in the certificate, fqdn first' }),
    certificate: z.string().openapi({ description: 'PEM' }),
    chain: z.string().openapi({ description: 'PEM: what a server presents after its certificate (the issuing CA and any intermediates)' }),
    not_before: DateTime,
    not_after: DateTime,
    serial: z.string().openapi({ description: 'uppercase hex' }),
    created_at: DateTime.openapi({ description: 'when this certificate was issued' }),
  })
  .openapi('Certificate');

export const CertificateList = listOf('certificates', Certificate, 'CertificateList');
