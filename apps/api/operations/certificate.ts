import type { Logger } from 'pino';
import { CertificateRequestRefused, type CertificateIssuer } from '../../../core/certificate-issuer.js';
import { certificateDnsNames, namesReason, tenantZone } from '../../../core/names/certificate-labels.js';
import { reusable } from '../../../core/certificate-reuse.js';
import type { CertificateView } from '../../../core/views/certificate.js';
import { viewCertificate } from '../../../db/views/certificate.js';
import { BackendError } from '../../../core/backend-outcome.js';
import { deleteCertificate, getCertificate, listCertificates, replaceCertificate } from '../../../db/queries/certificates.js';
import { tenantExists } from '../../../db/queries/tenants.js';
import type { Registry } from '../../../db/registry.js';

export type CertificatePutResult =
  /** The current certificate still serves the same key and names with more than 60 days left. */
  | { kind: 'current'; certificate: CertificateView }
  | { kind: 'issued'; certificate: CertificateView }
  | { kind: 'invalid'; reason: string }
  | { kind: 'failed'; step: 'ca' };

/** What the certificate routes ask of the service. */
export interface CertificateOperations {
  put(input: { tenant: string; name: string; csr: string; names: readonly string[] }): Promise<CertificatePutResult>;
  get(tenant: string, name: string): Promise<CertificateView | undefined>;
  list(tenant: string): Promise<CertificateView[]>;
  /** False when there was no certificate to forget. Nothing is revoked. */
  delete(tenant: string, name: string): Promise<boolean>;
  /** Routes answer 404 `tenant not found` before anything else for a name the registry lacks. */
  tenantRegistered(tenant: string): Promise<boolean>;
}

/**
 * Certificates are issued in the API process: signing is local work with the CA key (which the
 * API's environment holds, as the worker's does), no backend is called, so a Temporal run would
 * add a dependency and a hop for nothing. Two replicas answering the same PUT are serialised per
 * name by the registry (replaceCertificate), so they agree on one current certificate.
 */
export function certificateOperations(opts: {
  siteDomain: string;
  registry: Registry;
  issuer: CertificateIssuer;
  log: Logger;
  now?: () => Date;
}): CertificateOperations {
  const { siteDomain, registry, issuer, log } = opts;
  const db = registry.db;
  const ctx: Certificates = { siteDomain, db, issuer, log, now: opts.now ?? (() => new Date()) };

  return {
    put: (input) => put(ctx, input),
    async get(tenant, name) {
      const row = await getCertificate(db, tenant, name);
      return row ? viewCertificate(siteDomain, row) : undefined;
    },
    async list(tenant) {
      return (await listCertificates(db, tenant)).map((r) => viewCertificate(siteDomain, r));
    },
    delete: (tenant, name) => deleteCertificate(db, tenant, name),
    tenantRegistered: (tenant) => tenantExists(db, tenant),
  };
}

/** What put needs: the registry, the issuer, the log and the clock. */
interface Certificates {
  siteDomain: string;
  db: Registry['db'];
  issuer: CertificateIssuer;
  log: Logger;
  now: () => Date;
}

async function put(ctx: Certificates, input: { tenant: string; name: string; csr: string; names: readonly string[] }): Promise<CertificatePutResult> {
  const { siteDomain, db, issuer, log, now } = ctx;
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
