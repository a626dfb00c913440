/**
 * The tenant service CA: turns a tenant's signing request into a one-year server certificate for
 * names in the tenant's zone. Only the request's key is used (csr.ts); subject, names, usages and
 * lifetime are the issuer's and the same for every tenant. The CA key may be RSA or EC; all key
 * work is node:crypto's. Bad configuration (key not matching the certificate, a CA certificate
 * that is not a CA, a chain that does not link up) fails when the issuer is built. It is the
 * adapter of the port core/certificate-issuer.ts, through which the API signs.
 */
import { X509Certificate, createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { BackendError } from '../../core/backend-outcome.js';
import { CertificateRequestRefused, type CertificateIssuer, type IssuedCertificate, type IssueRequest } from '../../core/certificate-issuer.js';
import { readCsr, inspectCsr } from './csr.js';
import { certificateDnsNames, certificateNameReason, namesReason, tenantZone } from '../../core/names/certificate-labels.js';
import { OIDS, buildCertificate, ext, keyIdentifier, nameWithCommonName, readCertificate, readKeyIdentifier, signatureAlgorithm, toPem } from './x509.js';

export interface IssuerOptions {
  /** The issuing CA's certificate (a root, or an intermediate). */
  caCertPem: string;
  /** Its private key (PKCS#8, or PKCS#1 RSA / SEC1 EC), unencrypted. */
  caKeyPem: string;
  /**
   * Certificates above the issuing CA that a server must present, nearest first, without the
   * root. Empty or absent when the issuing CA is the root or is signed by the root directly.
   */
  chainPem?: string[];
  siteDomain: string;
  /** Clock, for tests. */
  now?: () => Date;
}

export const LIFETIME_DAYS = 365;
/** Backdating absorbs clocks of clients a little behind ours. */
const BACKDATE_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** X.520 upper bound of a common name. */
const MAX_CN = 64;

/** What issuing needs of the CA, read and checked once when the issuer is built. */
interface Ca {
  caCert: X509Certificate;
  caKey: KeyObject;
  caParts: ReturnType<typeof readCertificate>;
  caKeyId: ReturnType<typeof keyIdentifier>;
  caNotAfter: Date;
  chainPem: string;
  siteDomain: string;
  now: () => Date;
}

export function createIssuer(opts: IssuerOptions): CertificateIssuer {
  const ctx = loadCa(opts);
  return { inspectCsr, issue: (req) => issue(ctx, req), caCertificatePem: toPem(ctx.caCert.raw) };
}

function loadCa(opts: IssuerOptions): Ca {
  const caCert = new X509Certificate(opts.caCertPem);
  if (!caCert.ca) throw new Error('the CA certificate is not a CA certificate (basicConstraints CA:TRUE missing)');
  let caKey: KeyObject;
  try {
    caKey = createPrivateKey(opts.caKeyPem);
  } catch {
    throw new Error('the CA key cannot be read (unencrypted PEM expected)');
  }
  const spkiOf = (k: KeyObject) => k.export({ format: 'der', type: 'spki' });
  if (!spkiOf(createPublicKey(caKey)).equals(spkiOf(caCert.publicKey))) {
    throw new Error('the CA key does not belong to the CA certificate');
  }
  signatureAlgorithm(caKey); // refuses unsupported CA key types now rather than at the first issue

  const chain = (opts.chainPem ?? []).map((p) => new X509Certificate(p));
  let child = caCert;
  for (const parent of chain) {
    if (!child.checkIssued(parent) || !child.verify(parent.publicKey)) {
      throw new Error('the configured chain does not link up: each certificate must have issued the one before it');
    }
    child = parent;
  }

  const caParts = readCertificate(caCert.raw);
  const skiExt = caParts.extensions.get(OIDS.subjectKeyIdentifier);
  const caKeyId = skiExt ? readKeyIdentifier(skiExt.value) : keyIdentifier(caParts.spki);
  const caNotAfter = new Date(caCert.validTo);
  const chainPem = [caCert, ...chain].map((c) => toPem(c.raw)).join('');
  const now = opts.now ?? (() => new Date());
  return { caCert, caKey, caParts, caKeyId, caNotAfter, chainPem, siteDomain: opts.siteDomain, now };
}

async function issue(ctx: Ca, req: IssueRequest): Promise<IssuedCertificate> {
  const csr = readCsr(req.csrPem);
  if (!csr.ok) throw new CertificateRequestRefused(csr.reason);
  const nameReason = certificateNameReason(req.certificate);
  if (nameReason) throw new CertificateRequestRefused(nameReason);
  const zone = tenantZone(req.tenant, ctx.siteDomain);
  const namesBad = namesReason(req.names, zone);
  if (namesBad) throw new CertificateRequestRefused(namesBad);

  const t = ctx.now();
  if (t.getTime() >= ctx.caNotAfter.getTime()) throw new BackendError('ca', 'the tenant service CA certificate has expired', false);
  const notBefore = new Date(Math.floor((t.getTime() - BACKDATE_MS) / 1000) * 1000);
  const notAfter = new Date(notBefore.getTime() + LIFETIME_DAYS * DAY_MS);

  const sans = certificateDnsNames(req.certificate, zone, req.names);
  const cn = sans[0]!.length <= MAX_CN ? sans[0] : undefined;
  const serial = randomBytes(16);
  // Positive and 16 significant bytes: a serial never starts with a zero or sign bit.
  serial[0] = (serial[0]! & 0x7f) | 0x01;

  const der = buildCertificate({
    serial,
    issuer: ctx.caParts.subject,
    subject: nameWithCommonName(cn),
    notBefore,
    notAfter,
    spki: csr.key.spki,
    signingKey: ctx.caKey,
    extensions: [
      ext.basicConstraints(false),
      ext.keyUsage(csr.key.keyType === 'rsa' ? ['digitalSignature', 'keyEncipherment'] : ['digitalSignature']),
      ext.extKeyUsage([OIDS.serverAuth]),
      ext.subjectAltNameDns(sans, cn === undefined),
      ext.subjectKeyIdentifier(keyIdentifier(csr.key.spki)),
      ext.authorityKeyIdentifier(ctx.caKeyId),
    ],
  });
  return {
    certificatePem: toPem(der),
    chainPem: ctx.chainPem,
    notBefore,
    notAfter,
    serial: serial.toString('hex').toUpperCase(),
    sans,
    publicKeyFingerprint: csr.key.publicKeyFingerprint,
    keyType: csr.key.keyType,
  };
}
