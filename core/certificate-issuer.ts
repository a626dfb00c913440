/**
 * The port through which the API signs tenant certificates: the tenant service CA as the API sees
 * it. Its adapter is activities/certificates/issuer.ts (createIssuer); apps/config/ca.ts binds the
 * site's CA to it when the API starts (docs/decisions.md, 2026-11-28), so apps/api names only this.
 */

export type KeyType = 'rsa' | 'ecdsa-p256';

export type CsrInspection = { ok: true; publicKeyFingerprint: string; keyType: KeyType; keyBits: number } | { ok: false; reason: string };

export interface IssueRequest {
  csrPem: string;
  /** The certificate name (a label; the common name once the zone is appended). */
  certificate: string;
  tenant: string;
  /** Further labels in the tenant zone. */
  names: readonly string[];
}

export interface IssuedCertificate {
  certificatePem: string;
  /** What a server presents after its certificate: the issuing CA, then `chainPem`. */
  chainPem: string;
  notBefore: Date;
  notAfter: Date;
  /** Uppercase hex. */
  serial: string;
  /** DNS names in the certificate, the common name first. */
  sans: string[];
  publicKeyFingerprint: string;
  keyType: KeyType;
}

export interface CertificateIssuer {
  inspectCsr(pem: string): Promise<CsrInspection>;
  /** Throws CertificateRequestRefused (a 400) for a bad request, BackendError when the CA cannot sign. */
  issue(req: IssueRequest): Promise<IssuedCertificate>;
  /** The issuing CA certificate. */
  readonly caCertificatePem: string;
}

/** The request itself is at fault; `reason` is fit for a 400. */
export class CertificateRequestRefused extends Error {
  override readonly name = 'CertificateRequestRefused';
  constructor(readonly reason: string) {
    super(reason);
  }
}
