/**
 * Building and signing X.509 v3 certificates (RFC 5280) with node:crypto. node-forge's pki only
 * handles RSA keys, while tenants may send ECDSA P-256 keys and the site CA may be EC: the
 * TBSCertificate is assembled here with the DER writer and signed by whatever key node:crypto
 * holds (RSA PKCS#1 v1.5 or ECDSA).
 */
import { createHash, sign, type KeyObject } from 'node:crypto';
import {
  DerError,
  TAG,
  bitString,
  bool,
  children,
  contentOf,
  decodeOid,
  explicit,
  ia5Implicit,
  nullValue,
  octets,
  oid,
  rawOf,
  readRoot,
  seq,
  set,
  smallInteger,
  time,
  tlv,
  unsignedInteger,
  utf8,
} from './der.js';

export const OIDS = {
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
} as const;

export interface Extension {
  oid: string;
  critical: boolean;
  /** The DER that goes inside extnValue's OCTET STRING. */
  value: Buffer;
}

const KEY_USAGE_BITS = {
  digitalSignature: 0,
  nonRepudiation: 1,
  keyEncipherment: 2,
  dataEncipherment: 3,
  keyAgreement: 4,
  keyCertSign: 5,
  cRLSign: 6,
} as const;
export type KeyUsage = keyof typeof KEY_USAGE_BITS;

export const ext = {
  basicConstraints(ca: boolean, pathLen?: number): Extension {
    const inner = ca ? [bool(true), ...(pathLen !== undefined ? [smallInteger(pathLen)] : [])] : [];
    return { oid: OIDS.basicConstraints, critical: true, value: seq(...inner) };
  },
  keyUsage(usages: KeyUsage[]): Extension {
    const bits = usages.map((u) => KEY_USAGE_BITS[u]);
    const top = Math.max(...bits);
    const bytes = Buffer.alloc(Math.floor(top / 8) + 1);
    for (const b of bits) bytes[Math.floor(b / 8)]! |= 0x80 >> (b % 8);
    // DER: no trailing zero bits, and say how many of the last byte are unused.
    return { oid: OIDS.keyUsage, critical: true, value: bitString(bytes, bytes.length * 8 - 1 - top) };
  },
  extKeyUsage(purposes: string[]): Extension {
    return { oid: OIDS.extKeyUsage, critical: false, value: seq(...purposes.map(oid)) };
  },
  /** Critical when the subject is empty (RFC 5280 4.2.1.6). */
  subjectAltNameDns(names: string[], critical = false): Extension {
    return { oid: OIDS.subjectAltName, critical, value: seq(...names.map((n) => ia5Implicit(2, n))) };
  },
  subjectKeyIdentifier(keyId: Buffer): Extension {
    return { oid: OIDS.subjectKeyIdentifier, critical: false, value: octets(keyId) };
  },
  authorityKeyIdentifier(keyId: Buffer): Extension {
    return { oid: OIDS.authorityKeyIdentifier, critical: false, value: seq(tlv(0x80, keyId)) };
  },
};

/** A Name holding one CN (or none: an empty subject). */
export function nameWithCommonName(cn: string | undefined): Buffer {
  return cn === undefined ? seq() : seq(set(seq(oid(OIDS.commonName), utf8(cn))));
}

/** RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey bits. */
export function keyIdentifier(spkiDer: Buffer): Buffer {
  const root = readRoot(spkiDer);
  const [, key] = children(spkiDer, root);
  if (!key || key.tag !== TAG.BIT_STRING) throw new DerError('SubjectPublicKeyInfo without a key');
  return createHash('sha1').update(contentOf(spkiDer, key).subarray(1)).digest();
}

export function signatureAlgorithm(key: KeyObject): { identifier: Buffer; hash: string } {
  if (key.asymmetricKeyType === 'rsa') return { identifier: seq(oid(OIDS.sha256WithRSAEncryption), nullValue()), hash: 'sha256' };
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return { identifier: seq(oid(OIDS.ecdsaWithSHA256)), hash: 'sha256' };
    if (curve === 'secp384r1') return { identifier: seq(oid(OIDS.ecdsaWithSHA384)), hash: 'sha384' };
    if (curve === 'secp521r1') return { identifier: seq(oid(OIDS.ecdsaWithSHA512)), hash: 'sha512' };
  }
  throw new Error(`CA keys of type ${key.asymmetricKeyType ?? 'unknown'} are not supported (RSA, or EC P-256/P-384/P-521)`);
}

export interface CertificateFields {
  /** Positive, at most 20 bytes. */
  serial: Buffer;
  /** DER Names; the issuer is the CA certificate's subject, byte for byte. */
  issuer: Buffer;
  subject: Buffer;
  notBefore: Date;
  notAfter: Date;
  /** DER SubjectPublicKeyInfo of the certified key. */
  spki: Buffer;
  extensions: Extension[];
  signingKey: KeyObject;
}

/** DER of the signed certificate. */
export function buildCertificate(f: CertificateFields): Buffer {
  const alg = signatureAlgorithm(f.signingKey);
  const tbs = seq(
    explicit(0, smallInteger(2)),
    unsignedInteger(f.serial),
    alg.identifier,
    f.issuer,
    seq(time(f.notBefore), time(f.notAfter)),
    f.subject,
    f.spki,
    explicit(3, seq(...f.extensions.map((e) => seq(oid(e.oid), ...(e.critical ? [bool(true)] : []), octets(e.value))))),
  );
  // ECDSA signatures come out DER-encoded (node's default dsaEncoding), as X.509 wants.
  const signature = sign(alg.hash, tbs, f.signingKey);
  return seq(tbs, alg.identifier, bitString(signature));
}

export interface CertificateParts {
  subject: Buffer;
  spki: Buffer;
  extensions: Map<string, { critical: boolean; value: Buffer }>;
}

/** The parts of a certificate an issuer copies: subject Name, key, extensions. */
export function readCertificate(der: Buffer): CertificateParts {
  const [tbs] = children(der, readRoot(der));
  if (!tbs || tbs.tag !== TAG.SEQUENCE) throw new DerError('not a certificate');
  const fields = children(der, tbs);
  // version [0] is optional (v1); the rest have fixed places after it.
  const base = fields[0]?.tag === 0xa0 ? 1 : 0;
  const subject = fields[base + 4];
  const spki = fields[base + 5];
  if (!subject || !spki) throw new DerError('certificate too short');
  const extensions = new Map<string, { critical: boolean; value: Buffer }>();
  const extWrapper = fields.slice(base + 6).find((t) => t.tag === 0xa3);
  if (extWrapper) {
    const [list] = children(der, extWrapper);
    for (const e of list ? children(der, list) : []) {
      const parts = children(der, e);
      const id = parts[0];
      const value = parts[parts.length - 1];
      if (!id || !value || id.tag !== TAG.OID || value.tag !== TAG.OCTET_STRING) continue;
      const critical = parts.length === 3 && der[parts[1]!.contentStart] === 0xff;
      extensions.set(decodeOid(contentOf(der, id)), { critical, value: contentOf(der, value) });
    }
  }
  return { subject: rawOf(der, subject), spki: rawOf(der, spki), extensions };
}

/** The key identifier inside a SubjectKeyIdentifier extension value. */
export function readKeyIdentifier(extValue: Buffer): Buffer {
  const t = readRoot(extValue);
  if (t.tag !== TAG.OCTET_STRING) throw new DerError('SubjectKeyIdentifier is not an OCTET STRING');
  return contentOf(extValue, t);
}

export function toPem(der: Buffer, label = 'CERTIFICATE'): string {
  const b64 = der.toString('base64').replace(/.{1,64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${b64}-----END ${label}-----\n`;
}

/** Decode exactly one PEM block with one of these labels. */
export function fromPem(pem: string, labels: readonly string[]): Buffer | { error: string } {
  const blocks = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)];
  if (blocks.length === 0) return { error: 'no PEM block found' };
  if (blocks.length > 1) return { error: 'more than one PEM block' };
  const [, label, body] = blocks[0]!;
  if (!labels.includes(label!)) return { error: `a PEM ${label} block, not ${labels[0]}` };
  const b64 = body!.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return { error: 'the PEM body is not base64' };
  return Buffer.from(b64, 'base64');
}
