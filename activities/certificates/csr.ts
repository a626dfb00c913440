/**
 * Reading a PKCS#10 signing request (RFC 2986) for its public key only. The request must be
 * signed by the key it carries (proof the tenant holds the private key); the key must be RSA of
 * 2048 bits or more, or ECDSA P-256. Subject, attributes and requested extensions are ignored.
 * Parsing takes exact slices (der.ts) so the signature is checked over the bytes as sent.
 */
import { createHash, createPublicKey, verify, constants, type KeyObject } from 'node:crypto';
import { DerError, TAG, children, contentOf, decodeOid, rawOf, readRoot } from './der.js';
import { fromPem } from './x509.js';
import type { CsrInspection, KeyType } from '../../core/certificate-issuer.js';

export interface CsrKey {
  publicKey: KeyObject;
  /** The key's SubjectPublicKeyInfo as node:crypto re-encodes it (canonical DER). */
  spki: Buffer;
  /** SHA-256 of `spki`, lowercase hex: the same key always gives the same print. */
  publicKeyFingerprint: string;
  keyType: KeyType;
  keyBits: number;
}

export const MIN_RSA_BITS = 2048;

const SIGNATURE_ALGORITHMS: Record<string, { family: 'rsa' | 'ec'; hash: string }> = {
  '1.2.840.113549.1.1.11': { family: 'rsa', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { family: 'rsa', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { family: 'rsa', hash: 'sha512' },
  '1.2.840.10045.4.3.2': { family: 'ec', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { family: 'ec', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { family: 'ec', hash: 'sha512' },
};

/** The request's key, or why the request is refused (a reason fit for a 400). */
export function readCsr(pem: string): { ok: true; key: CsrKey } | { ok: false; reason: string } {
  const der = fromPem(pem, ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST']);
  if (!Buffer.isBuffer(der)) return { ok: false, reason: `csr: ${der.error}` };
  try {
    return readCsrDer(der);
  } catch (err) {
    if (err instanceof DerError) return { ok: false, reason: `csr: not a valid signing request (${err.message})` };
    throw err;
  }
}

export function inspectCsr(pem: string): CsrInspection {
  const r = readCsr(pem);
  if (!r.ok) return r;
  const { publicKeyFingerprint, keyType, keyBits } = r.key;
  return { ok: true, publicKeyFingerprint, keyType, keyBits };
}

function readCsrDer(der: Buffer): { ok: true; key: CsrKey } | { ok: false; reason: string } {
  const root = readRoot(der);
  const top = root.tag === TAG.SEQUENCE ? children(der, root) : [];
  const [info, algorithm, signature] = top;
  if (top.length !== 3 || info?.tag !== TAG.SEQUENCE || algorithm?.tag !== TAG.SEQUENCE || signature?.tag !== TAG.BIT_STRING) {
    return { ok: false, reason: 'csr: not a PKCS#10 signing request' };
  }
  const [version, , spkiTlv] = children(der, info);
  if (version?.tag !== TAG.INTEGER || !contentOf(der, version).equals(Buffer.from([0]))) {
    return { ok: false, reason: 'csr: unsupported request version' };
  }
  if (spkiTlv?.tag !== TAG.SEQUENCE) return { ok: false, reason: 'csr: no public key' };

  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: rawOf(der, spkiTlv), format: 'der', type: 'spki' });
  } catch {
    return { ok: false, reason: 'csr: the public key cannot be read' };
  }
  const keyType = publicKey.asymmetricKeyType;
  const details = publicKey.asymmetricKeyDetails ?? {};
  let accepted: { keyType: KeyType; keyBits: number };
  if (keyType === 'rsa') {
    const bits = details.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) return { ok: false, reason: `csr: RSA key of ${bits} bits; at least ${MIN_RSA_BITS} are required` };
    accepted = { keyType: 'rsa', keyBits: bits };
  } else if (keyType === 'ec') {
    if (details.namedCurve !== 'prime256v1') {
      return { ok: false, reason: `csr: EC key on ${details.namedCurve ?? 'an unnamed curve'}; only P-256 is accepted` };
    }
    accepted = { keyType: 'ecdsa-p256', keyBits: 256 };
  } else {
    return { ok: false, reason: `csr: ${keyType ?? 'unknown'} keys are not accepted; use RSA (2048 bits or more) or ECDSA P-256` };
  }
  // The key is judged first: its reason helps the tenant more than the algorithm's.
  const [algOid] = children(der, algorithm);
  if (algOid?.tag !== TAG.OID) return { ok: false, reason: 'csr: no signature algorithm' };
  const alg = SIGNATURE_ALGORITHMS[decodeOid(contentOf(der, algOid))];
  if (!alg) return { ok: false, reason: 'csr: unsupported signature algorithm (use SHA-256 or better with RSA PKCS#1 v1.5 or ECDSA)' };
  if ((alg.family === 'rsa') !== (keyType === 'rsa')) {
    return { ok: false, reason: 'csr: the signature algorithm does not match the key type' };
  }

  const sigBits = contentOf(der, signature);
  if (sigBits.length < 2 || sigBits[0] !== 0) return { ok: false, reason: 'csr: malformed signature' };
  const signed = rawOf(der, info);
  let ok = false;
  try {
    ok =
      alg.family === 'rsa'
        ? verify(alg.hash, signed, { key: publicKey, padding: constants.RSA_PKCS1_PADDING }, sigBits.subarray(1))
        : verify(alg.hash, signed, { key: publicKey, dsaEncoding: 'der' }, sigBits.subarray(1));
  } catch {
    // OpenSSL throws on a signature it cannot even decode: that is a bad signature too.
  }
  if (!ok) return { ok: false, reason: 'csr: the request is not signed by its own key' };

  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    ok: true,
    key: { publicKey, spki, publicKeyFingerprint: createHash('sha256').update(spki).digest('hex'), ...accepted },
  };
}
