import { describe, it, expect, beforeAll } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { createIssuer } from '../activities/certificates/issuer.js';
import { createLabCa, type LabCa } from '../activities/certificates/lab-ca.js';
import { crypto, x509 } from './x509.js';
import type { CertificateIssuer, IssuedCertificate } from './certificate-issuer.js';

/**
 * The bytes the CA puts on the wire, as the hand-written DER writer produced them before the
 * library took over (its vectors, kept): DER's rules for defaults, bit strings and times.
 */
const hex = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('hex');
const extension = (pem: string, oid: string) => {
  const e = new x509.X509Certificate(pem).getExtension(oid);
  if (!e) throw new Error(`no extension ${oid}`);
  return { value: hex(e.value), critical: e.critical };
};

async function requestPem(keyType: 'rsa' | 'ec'): Promise<string> {
  const alg =
    keyType === 'rsa'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 }
      : { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await crypto.subtle.generateKey(alg, false, ['sign', 'verify'])) as { privateKey: CryptoKeyLike; publicKey: CryptoKeyLike };
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=ignored', keys, signingAlgorithm: alg }, crypto);
  return csr.toString('pem');
}
type CryptoKeyLike = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

let ca: LabCa;
let rsaLeaf: IssuedCertificate;
let ecLeaf: IssuedCertificate;
let issuer: CertificateIssuer;

beforeAll(async () => {
  ca = await createLabCa({ keyType: 'ec', now: new Date('2026-01-01T00:00:00Z'), days: 10_000 });
  issuer = createIssuer({ caCertPem: ca.caCertPem, caKeyPem: ca.caKeyPem, siteDomain: 'site.example' });
  const req = { certificate: 'web', tenant: 'acme', names: [] };
  [rsaLeaf, ecLeaf] = await Promise.all([issuer.issue({ ...req, csrPem: await requestPem('rsa') }), issuer.issue({ ...req, csrPem: await requestPem('ec') })]);
});

describe('what the CA signs, byte for byte', () => {
  it.each([
    ['basicConstraints CA:FALSE is an empty SEQUENCE, critical', () => extension(rsaLeaf.certificatePem, '2.5.29.19'), { value: '3000', critical: true }],
    [
      'keyUsage of an RSA key: digitalSignature+keyEncipherment, 5 unused bits',
      () => extension(rsaLeaf.certificatePem, '2.5.29.15'),
      { value: '030205a0', critical: true },
    ],
    ['keyUsage of an EC key: digitalSignature, 7 unused bits', () => extension(ecLeaf.certificatePem, '2.5.29.15'), { value: '03020780', critical: true }],
    ['extKeyUsage serverAuth', () => extension(ecLeaf.certificatePem, '2.5.29.37'), { value: '300a06082b06010505070301', critical: false }],
    ['a CA: keyUsage digitalSignature+keyCertSign+cRLSign, 1 unused bit', () => extension(ca.caCertPem, '2.5.29.15'), { value: '03020186', critical: true }],
    ['a root issuing directly: CA:TRUE, pathlen 0', () => extension(ca.caCertPem, '2.5.29.19'), { value: '30060101ff020100', critical: true }],
  ])('%s', (_what, got, want) => {
    expect(got()).toEqual(want);
  });

  it("names the CA's subject as issuer, byte for byte, and its key as authority", () => {
    const leaf = new x509.X509Certificate(ecLeaf.certificatePem);
    const issuing = new x509.X509Certificate(ca.caCertPem);
    expect(hex(leaf.issuerName.toArrayBuffer())).toBe(hex(issuing.subjectName.toArrayBuffer()));
    const aki = leaf.getExtension(x509.AuthorityKeyIdentifierExtension);
    expect(aki?.keyId).toBe(issuing.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId);
    expect(new X509Certificate(ecLeaf.certificatePem).verify(new X509Certificate(ca.caCertPem).publicKey)).toBe(true);
  });

  it('writes UTCTime through 2049 and GeneralizedTime from 2050 (RFC 5280 4.1.2.5)', () => {
    const der = Buffer.from(new x509.X509Certificate(ca.caCertPem).rawData);
    // 2025-12-31T23:59:00Z (a minute backdated), and 10,000 days on: 2053-05-18T23:59:00Z.
    expect(der.includes(Buffer.from('170d3235313233313233353930305a', 'hex'))).toBe(true);
    expect(der.includes(Buffer.from('180f32303533303531383233353930305a', 'hex'))).toBe(true);
  });

  it('gives a positive serial of 16 significant bytes', () => {
    expect(rsaLeaf.serial).toMatch(/^[1-7][0-9A-F]{31}$/);
    expect(new X509Certificate(rsaLeaf.certificatePem).serialNumber.toUpperCase()).toBe(rsaLeaf.serial);
  });
});

describe("a request's PEM armour, read as leniently as before", () => {
  const body = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
  it.each([
    ['on one line', (pem: string) => `-----BEGIN CERTIFICATE REQUEST-----${body(pem)}-----END CERTIFICATE REQUEST-----`],
    [
      'indented, with CRLF',
      (pem: string) =>
        pem
          .split('\n')
          .map((l) => `  ${l}`)
          .join('\r\n'),
    ],
    ['as NEW CERTIFICATE REQUEST', (pem: string) => `-----BEGIN NEW CERTIFICATE REQUEST-----\n${body(pem)}\n-----END NEW CERTIFICATE REQUEST-----\n`],
  ])('reads a request %s', async (_how, armour) => {
    expect(await issuer.inspectCsr(armour(await requestPem('ec')))).toMatchObject({ ok: true, keyType: 'ecdsa-p256' });
  });

  it("refuses a body that does not parse as PKCS#10, in its own words rather than the library's", async () => {
    const r = await issuer.inspectCsr('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n');
    expect(r).toEqual({ ok: false, reason: 'csr: not a PKCS#10 signing request' });
  });

  it('refuses a body that is not base64, saying so', async () => {
    const r = await issuer.inspectCsr('-----BEGIN CERTIFICATE REQUEST-----\nnot*base64\n-----END CERTIFICATE REQUEST-----\n');
    expect(r).toEqual({ ok: false, reason: 'csr: the PEM body is not base64' });
  });
});
