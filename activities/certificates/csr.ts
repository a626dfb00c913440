/**
 * Reading a PKCS#10 signing request (RFC 2986) for its public key only, through @peculiar/x509
 * (x509.ts). The request must be signed by the key it carries (proof the tenant holds the private
 * key), over its bytes as sent; the key must be RSA of 2048 bits or more, or ECDSA P-256.
 * Subject, attributes and requested extensions are ignored.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { crypto, fromPem, x509 } from '../../core/x509.js';
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

/** The signatures a request may carry: PKCS#1 v1.5 or ECDSA, over SHA-256 or better. */
const FAMILY_OF_SIGNATURE: Record<string, 'rsa' | 'ec'> = { 'RSASSA-PKCS1-v1_5': 'rsa', ECDSA: 'ec' };
const STRONG_HASHES = ['SHA-256', 'SHA-384', 'SHA-512'];

type Read = { ok: true; key: CsrKey } | { ok: false; reason: string };
const refused = (reason: string): Read => ({ ok: false, reason: `csr: ${reason}` });

/** The library's request, with the version it keeps to itself. */
class SigningRequest extends x509.Pkcs10CertificateRequest {
  get version(): number {
    return this.asn.certificationRequestInfo.version;
  }
}

/** The request's key, or why the request is refused (a reason fit for a 400). */
export async function readCsr(pem: string): Promise<Read> {
  const der = fromPem(pem, ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST']);
  if (!Buffer.isBuffer(der)) return refused(der.error);
  let request: SigningRequest;
  try {
    request = new SigningRequest(der);
  } catch {
    // The library's own words name its arguments ("Unsupported format of 'raw' argument"), not the request.
    return refused('not a PKCS#10 signing request');
  }
  if (request.version !== 0) return refused('unsupported request version');

  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: Buffer.from(request.publicKey.rawData), format: 'der', type: 'spki' });
  } catch {
    return refused('the public key cannot be read');
  }
  const accepted = acceptedKey(publicKey);
  if ('reason' in accepted) return refused(accepted.reason);
  // The key is judged first: its reason helps the tenant more than the algorithm's.
  const signature = signatureOf(request);
  if (!signature) return refused('unsupported signature algorithm (use SHA-256 or better with RSA PKCS#1 v1.5 or ECDSA)');
  if ((signature === 'rsa') !== (accepted.keyType === 'rsa')) return refused('the signature algorithm does not match the key type');
  if (!(await request.verify(crypto).catch(() => false))) return refused('the request is not signed by its own key');

  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return { ok: true, key: { publicKey, spki, publicKeyFingerprint: createHash('sha256').update(spki).digest('hex'), ...accepted } };
}

export async function inspectCsr(pem: string): Promise<CsrInspection> {
  const r = await readCsr(pem);
  if (!r.ok) return r;
  const { publicKeyFingerprint, keyType, keyBits } = r.key;
  return { ok: true, publicKeyFingerprint, keyType, keyBits };
}

function acceptedKey(publicKey: KeyObject): { keyType: KeyType; keyBits: number } | { reason: string } {
  const keyType = publicKey.asymmetricKeyType;
  const details = publicKey.asymmetricKeyDetails ?? {};
  if (keyType === 'rsa') {
    const bits = details.modulusLength ?? 0;
    return bits < MIN_RSA_BITS ? { reason: `RSA key of ${bits} bits; at least ${MIN_RSA_BITS} are required` } : { keyType: 'rsa', keyBits: bits };
  }
  if (keyType === 'ec') {
    return details.namedCurve === 'prime256v1'
      ? { keyType: 'ecdsa-p256', keyBits: 256 }
      : { reason: `EC key on ${details.namedCurve ?? 'an unnamed curve'}; only P-256 is accepted` };
  }
  return { reason: `${keyType ?? 'unknown'} keys are not accepted; use RSA (2048 bits or more) or ECDSA P-256` };
}

/** The request's signature family when it is one this CA accepts. */
function signatureOf(request: x509.Pkcs10CertificateRequest): 'rsa' | 'ec' | undefined {
  let algorithm: { name: string; hash?: { name: string } };
  try {
    algorithm = request.signatureAlgorithm as typeof algorithm;
  } catch {
    return undefined; // an algorithm the library does not know
  }
  const family = FAMILY_OF_SIGNATURE[algorithm.name];
  return family && STRONG_HASHES.includes(algorithm.hash?.name ?? '') ? family : undefined;
}
