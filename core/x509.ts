/**
 * The X.509 library the tenant service CA works through: @peculiar/x509 (RFC 5280 certificates,
 * PKCS#10 requests, RSA and ECDSA) over Node's WebCrypto, which every call is handed rather than
 * set as the library's global provider (docs/decisions.md, "Certificates through @peculiar/x509").
 * What is here is only how this CA uses it: its keys, its names, its PEM.
 */
// tsyringe, through which @peculiar/x509 finds its algorithms, needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto, type KeyObject } from 'node:crypto';

export { x509 };

/** Node's WebCrypto, as the library's calls take it. */
export const crypto = webcrypto;

/** serverAuth (RFC 5280 4.2.1.12). */
export const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

const EC_SIGNING: Record<string, { namedCurve: string; hash: string }> = {
  prime256v1: { namedCurve: 'P-256', hash: 'SHA-256' },
  secp384r1: { namedCurve: 'P-384', hash: 'SHA-384' },
  secp521r1: { namedCurve: 'P-521', hash: 'SHA-512' },
};

/** A CA key as the library signs with it: RSA PKCS#1 v1.5 with SHA-256, or ECDSA with its curve's hash. */
export interface Signer {
  signingKey: webcrypto.CryptoKey;
  signingAlgorithm: webcrypto.Algorithm & { hash: string };
}

/** Throws for a key this CA cannot sign with (so a bad site key fails at start, not at the first issue). */
export function signerOf(key: KeyObject): Signer {
  if (key.asymmetricKeyType === 'rsa') {
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    return { signingKey: key.toCryptoKey(algorithm, false, ['sign']), signingAlgorithm: algorithm };
  }
  const ec = key.asymmetricKeyType === 'ec' ? EC_SIGNING[key.asymmetricKeyDetails?.namedCurve ?? ''] : undefined;
  if (ec) {
    const signingKey = key.toCryptoKey({ name: 'ECDSA', namedCurve: ec.namedCurve }, false, ['sign']);
    return { signingKey, signingAlgorithm: { name: 'ECDSA', hash: ec.hash } };
  }
  throw new Error(`CA keys of type ${key.asymmetricKeyType ?? 'unknown'} are not supported (RSA, or EC P-256/P-384/P-521)`);
}

/** A Name holding one CN as a UTF8String (RFC 5280 4.1.2.6), or none: an empty subject. */
export function nameWithCommonName(cn: string | undefined): x509.Name {
  return new x509.Name(cn === undefined ? [] : [{ CN: [{ utf8String: cn }] }]);
}

/** RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey bits, as hex. */
export async function keyIdentifier(spki: webcrypto.BufferSource): Promise<string> {
  const ski = await x509.SubjectKeyIdentifierExtension.create(spki, false, crypto);
  return ski.keyId;
}

/** A positive serial of 16 significant bytes: never a leading zero or sign bit. */
export function randomSerial(): string {
  const serial = webcrypto.getRandomValues(new Uint8Array(16));
  // 0x10-0x7f: a first byte of 0x01-0x0f is significant too, but prints with a leading zero digit.
  serial[0] = 0x10 + (serial[0]! % 0x70);
  return Buffer.from(serial).toString('hex').toUpperCase();
}

export function toPem(der: webcrypto.BufferSource, label = 'CERTIFICATE'): string {
  return `${x509.PemConverter.encode(der, label)}\n`;
}

/**
 * Decode exactly one PEM block with one of these labels. Lenient about white space, as it always
 * was (a request pasted on one line, or indented, is read): the library's PEM reader wants the
 * body in lines, so the armour is read here.
 */
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
