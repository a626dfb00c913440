import type { Logger } from 'pino';
import { CertificateRequestRefused, type CertificateIssuer } from '../../core/certificate-issuer.js';
import { certificateDnsNames, namesReason, tenantZone } from '../../core/names/certificate-labels.js';
import { reusable } from '../../core/certificate-reuse.js';
import type { CertificateView } from '../../core/views/certificate.js';
import { BackendError } from '../../core/backend-outcome.js';
import type { Db } from '../registry.js';
import { viewCertificate } from '../views/certificate.js';
import { replaceCertificate } from './certificates.js';

export type CertificatePutResult =
  /** The current certificate still serves the same key and names with more than 60 days left. */
  | { kind: 'current'; certificate: CertificateView }
  | { kind: 'issued'; certificate: CertificateView }
  | { kind: 'invalid'; reason: string }
  | { kind: 'failed'; step: 'ca' };

/** What an issue needs: the registry, the site's CA (the port), the log and the clock. */
export interface CertificateIssueDeps {
  siteDomain: string;
  db: Db;
  issuer: CertificateIssuer;
  log: Logger;
  now: () => Date;
}

export interface CertificatePutInput {
  tenant: string;
  name: string;
  csr: string;
  names: readonly string[];
}

/**
 * The certificate issue (spec: Certificate, issuance rules): the request read for its key, the
 * labels checked against the tenant zone, the current certificate kept when it still serves the
 * same key and names, else a new one signed and stored. One function for the API's PUT and the
 * isolation check's canaries (activities/isolation/canary-objects.ts), so a canary's certificate
 * is issued exactly as a tenant's is.
 */
export async function issueCertificate(deps: CertificateIssueDeps, input: CertificatePutInput): Promise<CertificatePutResult> {
  const { siteDomain, db, issuer, log, now } = deps;
  const csr = await issuer.inspectCsr(input.csr);
  if (!csr.ok) return { kind: 'invalid', reason: csr.reason };
  const zone = tenantZone(input.tenant, siteDomain);
  const bad = namesReason(input.names, zone);
  if (bad) return { kind: 'invalid', reason: bad };
  // The certificate's own label among `names` adds nothing; repeats neither.
  const labels = [...new Set(input.names)].filter((l) => l !== input.name);
  const wanted = { publicKeyFingerprint: csr.publicKeyFingerprint, sans: certificateDnsNames(input.name, zone, labels) };
  try {
    const { row, stored } = await replaceCertificate(db, input.tenant, input.name, async (current) => {
      if (current && reusable({ ...current, sans: certificateDnsNames(current.name, zone, current.names) }, wanted, now())) {
        return { keep: current };
      }
      const issued = await issuer.issue({ csrPem: input.csr, certificate: input.name, tenant: input.tenant, names: labels });
      return {
        store: {
          tenant: input.tenant,
          name: input.name,
          names: labels,
          certificatePem: issued.certificatePem,
          chainPem: issued.chainPem,
          publicKeyFingerprint: issued.publicKeyFingerprint,
          serial: issued.serial,
          notBefore: issued.notBefore,
          notAfter: issued.notAfter,
        },
      };
    });
    const certificate = viewCertificate(siteDomain, row);
    if (stored) log.info({ tenant: input.tenant, certificate: input.name, serial: row.serial, not_after: certificate.not_after }, 'certificate issued');
    return { kind: stored ? 'issued' : 'current', certificate };
  } catch (err) {
    if (err instanceof CertificateRequestRefused) return { kind: 'invalid', reason: err.reason };
    if (err instanceof BackendError) {
      log.error({ tenant: input.tenant, certificate: input.name, step: 'ca', err: err.detail }, 'backend step failed');
      return { kind: 'failed', step: 'ca' };
    }
    throw err;
  }
}
