/**
 * The tenant service CA: turns a tenant's signing request into a one-year server certificate for
 * names in the tenant's zone. Only the request's key is used (csr.ts); subject, names, usages and
 * lifetime are the issuer's and the same for every tenant. The CA key may be RSA or EC; the
 * certificate is built and signed by @peculiar/x509 (x509.ts), the CA's files are read and checked
 * by node:crypto. Bad configuration (key not matching the certificate, a CA certificate
 * that is not a CA, a chain that does not link up) fails when the issuer is built. It is the
 * adapter of the port core/certificate-issuer.ts, through which the API signs.
 */
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { BackendError } from '../../core/backend-outcome.js';
import { CertificateRequestRefused, type CertificateIssuer, type IssuedCertificate, type IssueRequest } from '../../core/certificate-issuer.js';
import { readCsr, inspectCsr } from './csr.js';
import { certificateDnsNames, certificateNameReason, namesReason, tenantZone } from '../../core/names/certificate-labels.js';
import { SERVER_AUTH, crypto, keyIdentifier, nameWithCommonName, randomSerial, signerOf, toPem, x509, type Signer } from '../../core/x509.js';

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
  signer: Signer;
  /** The CA certificate's subject, byte for byte: the issuer of what it signs. */
  caName: x509.Name;
  /** Its key identifier (hex): its own SubjectKeyIdentifier, else derived from its key. */
  caKeyId: Promise<string>;
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
  const signer = signerOf(caKey);

  const chain = (opts.chainPem ?? []).map((p) => new X509Certificate(p));
  let child = caCert;
  for (const parent of chain) {
    if (!child.checkIssued(parent) || !child.verify(parent.publicKey)) {
      throw new Error('the configured chain does not link up: each certificate must have issued the one before it');
    }
    child = parent;
  }

  const parsed = new x509.X509Certificate(caCert.raw);
  const ski = parsed.getExtension(x509.SubjectKeyIdentifierExtension);
  const caKeyId = ski ? Promise.resolve(ski.keyId) : keyIdentifier(parsed.publicKey.rawData);
  const caName = new x509.Name(parsed.subjectName.toArrayBuffer());
  const caNotAfter = new Date(caCert.validTo);
  const chainPem = [caCert, ...chain].map((c) => toPem(c.raw)).join('');
  const now = opts.now ?? (() => new Date());
  return { caCert, signer, caName, caKeyId, caNotAfter, chainPem, siteDomain: opts.siteDomain, now };
}

async function issue(ctx: Ca, req: IssueRequest): Promise<IssuedCertificate> {
  const csr = await readCsr(req.csrPem);
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
  const serial = randomSerial();

  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serial,
      issuer: ctx.caName,
      subject: nameWithCommonName(cn),
      notBefore,
      notAfter,
      publicKey: csr.key.spki,
      ...ctx.signer,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(
          csr.key.keyType === 'rsa' ? x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment : x509.KeyUsageFlags.digitalSignature,
          true,
        ),
        new x509.ExtendedKeyUsageExtension([SERVER_AUTH], false),
        // Critical when the subject is empty (RFC 5280 4.2.1.6).
        new x509.SubjectAlternativeNameExtension(
          sans.map((value) => ({ type: 'dns' as const, value })),
          cn === undefined,
        ),
        new x509.SubjectKeyIdentifierExtension(await keyIdentifier(csr.key.spki), false),
        new x509.AuthorityKeyIdentifierExtension(await ctx.caKeyId, false),
      ],
    },
    crypto,
  );
  return {
    certificatePem: toPem(certificate.rawData),
    chainPem: ctx.chainPem,
    notBefore,
    notAfter,
    serial,
    sans,
    publicKeyFingerprint: csr.key.publicKeyFingerprint,
    keyType: csr.key.keyType,
  };
}
