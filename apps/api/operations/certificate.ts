import type { Logger } from 'pino';
import type { CertificateIssuer } from '../../../core/certificate-issuer.js';
import type { CertificateView } from '../../../core/views/certificate.js';
import { viewCertificate } from '../../../db/views/certificate.js';
import { deleteCertificate, getCertificate, listCertificates } from '../../../db/queries/certificates.js';
import { issueCertificate, type CertificatePutResult } from '../../../db/queries/certificate-issue.js';
import { tenantExists } from '../../../db/queries/tenants.js';
import type { Registry } from '../../../db/registry.js';

export type { CertificatePutResult };

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
  const deps = { siteDomain, db, issuer, log, now: opts.now ?? (() => new Date()) };

  return {
    put: (input) => issueCertificate(deps, input),
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
