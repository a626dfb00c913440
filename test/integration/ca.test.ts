/**
 * The tenant service CA checked with real tools: signing requests made by `openssl req`,
 * certificates checked by `openssl verify` and `openssl x509 -text`, and a node:tls server using
 * the issued certificate and the tenant's key, accepted by a client that trusts only the root.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLabCa, type LabCa } from '../../activities/certificates/lab-ca.js';
import { createIssuer } from '../../activities/certificates/issuer.js';
import { hostileCsr, opensslIn, tamperedCsr } from '../support/csr.js';
import { CertificateRequestRefused, type CertificateIssuer, type IssuedCertificate } from '../../core/certificate-issuer.js';

const SITE = 'site.example';
let dir: string;
const csr: Record<string, string> = {};
const key: Record<string, string> = {};
let rsaCa: LabCa;
let ecCa: LabCa;
let rsaIssuer: CertificateIssuer;
let ecIssuer: CertificateIssuer;

const openssl = (...args: string[]) => opensslIn(dir, ...args);

async function makeCsr(name: string, newkey: string[], extra: string[] = []): Promise<void> {
  ({ csr: csr[name], key: key[name] } = await hostileCsr(dir, name, newkey, 'acme.site.example', extra));
}

const tamper = tamperedCsr;

async function save(name: string, text: string): Promise<string> {
  await writeFile(join(dir, name), text);
  return name;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ca-test-'));
  await Promise.all([
    makeCsr('rsa2048', ['-newkey', 'rsa:2048']),
    makeCsr('rsa1024', ['-newkey', 'rsa:1024']),
    makeCsr('rsa3072', ['-newkey', 'rsa:3072']),
    makeCsr('sha1', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-sha1']),
    makeCsr('p256', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']),
    makeCsr('p384', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384']),
    makeCsr('ed25519', ['-newkey', 'ed25519']),
  ]);
  rsaCa = await createLabCa({ keyType: 'rsa' });
  ecCa = await createLabCa({ keyType: 'ec', intermediates: 2 });
  rsaIssuer = createIssuer({ caCertPem: rsaCa.caCertPem, caKeyPem: rsaCa.caKeyPem, chainPem: rsaCa.chainPem, siteDomain: SITE });
  ecIssuer = createIssuer({ caCertPem: ecCa.caCertPem, caKeyPem: ecCa.caKeyPem, chainPem: ecCa.chainPem, siteDomain: SITE });
  await save('rsa-root.pem', rsaCa.rootCertPem);
  await save('ec-root.pem', ecCa.rootCertPem);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('reading a signing request', () => {
  it.each([
    ['RSA 2048 is accepted', 'rsa2048', { ok: true, keyType: 'rsa', keyBits: 2048 }],
    ['ECDSA P-256 is accepted', 'p256', { ok: true, keyType: 'ecdsa-p256', keyBits: 256 }],
    ['RSA above 2048 is accepted', 'rsa3072', { ok: true, keyType: 'rsa', keyBits: 3072 }],
  ])('%s', async (_reason, name, want) => {
    const r = await rsaIssuer.inspectCsr(csr[name]!);
    expect(r).toMatchObject(want);
    if (r.ok) expect(r.publicKeyFingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['RSA 1024 is too small', () => csr.rsa1024!, /RSA key of 1024 bits; at least 2048/],
    ['ECDSA P-384 is not P-256', () => csr.p384!, /secp384r1; only P-256/],
    ['Ed25519 is not accepted', () => csr.ed25519!, /ed25519 keys are not accepted/],
    ['a SHA-1 signature is not accepted', () => csr.sha1!, /unsupported signature algorithm/],
    ['a changed subject breaks the signature', () => tamper(csr.rsa2048!, (d) => d.indexOf(Buffer.from('evil.example'))), /not signed by its own key/],
    ['a changed signature byte', () => tamper(csr.p256!, (d) => d.length - 3), /not signed by its own key|malformed/],
    ['a changed RSA signature byte', () => tamper(csr.rsa2048!, (d) => d.length - 1), /not signed by its own key/],
    ['not PEM at all', () => 'hello', /no PEM block/],
    ['a private key instead of a request', () => key.p256!, /not CERTIFICATE REQUEST/],
    ['two requests at once', () => csr.p256! + csr.rsa2048!, /more than one PEM block/],
    [
      'a PEM body that is not DER',
      () => '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n',
      /not a valid signing request|not a PKCS#10/,
    ],
  ])('refuses: %s', async (_reason, pem, reason) => {
    const r = await rsaIssuer.inspectCsr(pem());
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('gives the same key the same fingerprint', async () => {
    const a = await rsaIssuer.inspectCsr(csr.p256!);
    const b = await ecIssuer.inspectCsr(csr.p256!);
    const c = await rsaIssuer.inspectCsr(csr.rsa2048!);
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok && c.ok) {
      expect(a.publicKeyFingerprint).toBe(b.publicKeyFingerprint);
      expect(a.publicKeyFingerprint).not.toBe(c.publicKeyFingerprint);
    }
  });
});

describe.each([
  [
    'an RSA root CA, RSA tenant key',
    () => ({ issuer: rsaIssuer, ca: rsaCa, root: 'rsa-root.pem', req: 'rsa2048', usage: 'Digital Signature, Key Encipherment' }),
  ],
  [
    'an EC CA under two intermediates, ECDSA P-256 tenant key',
    () => ({ issuer: ecIssuer, ca: ecCa, root: 'ec-root.pem', req: 'p256', usage: 'Digital Signature' }),
  ],
])('issuing with %s', (label, setup) => {
  let s: ReturnType<typeof setup>;
  let cert: IssuedCertificate;
  const tag = label.startsWith('an RSA') ? 'rsa' : 'ec';

  beforeAll(async () => {
    s = setup();
    cert = await s.issuer.issue({ csrPem: csr[s.req]!, certificate: 'web', tenant: 'acme', names: ['www', 'api', 'www'] });
    await save(`${tag}-leaf.pem`, cert.certificatePem);
    await save(`${tag}-chain.pem`, cert.chainPem);
  });

  it('openssl verifies it as a TLS server certificate against the root', async () => {
    const out = await openssl('verify', '-x509_strict', '-purpose', 'sslserver', '-CAfile', s.root, '-untrusted', `${tag}-chain.pem`, `${tag}-leaf.pem`);
    expect(out).toContain(`${tag}-leaf.pem: OK`);
  });

  it('is not verified against another root', async () => {
    const other = tag === 'rsa' ? 'ec-root.pem' : 'rsa-root.pem';
    await expect(openssl('verify', '-CAfile', other, '-untrusted', `${tag}-chain.pem`, `${tag}-leaf.pem`)).rejects.toThrow();
  });

  it("carries the issuer's subject, names, usages and one year, never the request's", async () => {
    const text = await openssl('x509', '-in', `${tag}-leaf.pem`, '-noout', '-text');
    expect(text).toMatch(/Subject: CN ?= ?web\.acme\.site\.example/);
    expect(text).toContain('DNS:web.acme.site.example, DNS:www.acme.site.example, DNS:api.acme.site.example');
    expect(text).toMatch(/Extended Key Usage:\s*\n\s*TLS Web Server Authentication/);
    expect(text).toMatch(/Basic Constraints: critical\s*\n\s*CA:FALSE/);
    expect(text).toMatch(new RegExp(`Key Usage: critical\\s*\\n\\s*${s.usage}\\s*\\n`));
    expect(text).not.toContain('evil');
    expect(text).not.toContain('*.acme');
    const x = new X509Certificate(cert.certificatePem);
    const days = (Date.parse(x.validTo) - Date.parse(x.validFrom)) / 86_400_000;
    expect(days).toBe(365);
    expect(Math.abs(Date.parse(x.validFrom) - Date.now())).toBeLessThan(10 * 60_000);
    expect(x.serialNumber.toUpperCase()).toBe(cert.serial);
    expect(cert.sans).toEqual(['web.acme.site.example', 'www.acme.site.example', 'api.acme.site.example']);
    expect(cert.notAfter.toISOString()).toBe(new Date(x.validTo).toISOString());
  });

  it('comes with the chain a server presents: the issuing CA, then the intermediates above it', () => {
    const blocks = cert.chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n/g) ?? [];
    expect(blocks).toEqual([s.ca.caCertPem, ...s.ca.chainPem]);
  });

  it('serves TLS for every name to a client that trusts only the root', async () => {
    const server = await tlsServer(cert.certificatePem + cert.chainPem, key[s.req]!);
    try {
      for (const name of cert.sans) {
        expect(await handshake(server, name, s.ca.rootCertPem)).toBe('ok');
      }
      expect(await handshake(server, 'evil.example', s.ca.rootCertPem)).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
      expect(await handshake(server, 'x.www.acme.site.example', s.ca.rootCertPem)).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
      const otherRoot = tag === 'rsa' ? ecCa.rootCertPem : rsaCa.rootCertPem;
      expect(await handshake(server, 'web.acme.site.example', otherRoot)).not.toBe('ok');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('issuing', () => {
  it('gives every certificate its own random serial', async () => {
    const req = { csrPem: csr.p256!, certificate: 'web', tenant: 'acme', names: [] };
    const a = await rsaIssuer.issue(req);
    const b = await rsaIssuer.issue(req);
    expect(a.serial).not.toBe(b.serial);
    expect(a.serial).toMatch(/^[0-9A-F]{32}$/);
    expect(a.publicKeyFingerprint).toBe(b.publicKeyFingerprint);
  });

  it.each([
    ['a bad request', { csrPem: 'junk', certificate: 'web', names: [] }, /no PEM block/],
    ['a refused key', { csrPem: 'rsa1024', certificate: 'web', names: [] }, /at least 2048/],
    ['a bad certificate name', { csrPem: 'p256', certificate: 'Web', names: [] }, /certificate name/],
    ['a name with a dot', { csrPem: 'p256', certificate: 'web', names: ['www.example.com'] }, /a dot is not allowed/],
    ['a wildcard', { csrPem: 'p256', certificate: 'web', names: ['*'] }, /wildcards/],
    ['an address', { csrPem: 'p256', certificate: 'web', names: ['192.0.2.1'] }, /addresses/],
  ])('refuses %s with a reason for a 400', async (_reason, req, reason) => {
    const err = await rsaIssuer.issue({ ...req, csrPem: csr[req.csrPem] ?? req.csrPem, tenant: 'acme' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CertificateRequestRefused);
    expect((err as CertificateRequestRefused).reason).toMatch(reason);
  });

  it('leaves the subject empty and the names critical when the common name would pass 64 characters', async () => {
    const longSite = `${'s'.repeat(50)}.example`;
    const issuer = createIssuer({ caCertPem: rsaCa.caCertPem, caKeyPem: rsaCa.caKeyPem, siteDomain: longSite });
    const cert = await issuer.issue({ csrPem: csr.p256!, certificate: 'web', tenant: 'acme', names: [] });
    await save('long-leaf.pem', cert.certificatePem);
    const text = await openssl('x509', '-in', 'long-leaf.pem', '-noout', '-text');
    expect(text).toMatch(/Subject:\s*\n/);
    expect(text).toMatch(/Subject Alternative Name: critical/);
    expect(await openssl('verify', '-purpose', 'sslserver', '-CAfile', 'rsa-root.pem', 'long-leaf.pem')).toContain('OK');
  });

  it('refuses to sign once the CA has expired', async () => {
    const issuer = createIssuer({
      caCertPem: rsaCa.caCertPem,
      caKeyPem: rsaCa.caKeyPem,
      siteDomain: SITE,
      now: () => new Date(Date.now() + 20 * 365 * 86_400_000),
    });
    await expect(issuer.issue({ csrPem: csr.p256!, certificate: 'web', tenant: 'acme', names: [] })).rejects.toThrow(/expired/);
  });
});

describe('configuration', () => {
  it.each([
    ["a key that is not the CA's", () => ({ caCertPem: rsaCa.caCertPem, caKeyPem: ecCa.caKeyPem }), /does not belong/],
    [
      'a certificate that is not a CA',
      async () => {
        const leaf = await rsaIssuer.issue({ csrPem: csr.p256!, certificate: 'web', tenant: 'acme', names: [] });
        return { caCertPem: leaf.certificatePem, caKeyPem: key.p256! };
      },
      /not a CA certificate/,
    ],
    ['a chain that does not link up', () => ({ caCertPem: ecCa.caCertPem, caKeyPem: ecCa.caKeyPem, chainPem: [rsaCa.rootCertPem] }), /does not link up/],
    ['an unreadable key', () => ({ caCertPem: rsaCa.caCertPem, caKeyPem: 'nope' }), /cannot be read/],
  ])('refuses %s when the issuer is built', async (_reason, make, message) => {
    const opts = await make();
    expect(() => createIssuer({ ...opts, siteDomain: SITE })).toThrow(message);
  });
});

function tlsServer(certChainPem: string, keyPem: string): Promise<Server & { port: number }> {
  return new Promise((resolve) => {
    const server = createServer({ cert: certChainPem, key: keyPem, minVersion: 'TLSv1.2' }, (socket) => socket.end('hello'));
    server.listen(0, '127.0.0.1', () => {
      resolve(Object.assign(server, { port: (server.address() as { port: number }).port }));
    });
  });
}

/** 'ok' when the client verified the server for `servername` against `ca`, else the error code. */
function handshake(server: { port: number }, servername: string, ca: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: server.port, servername, ca: [ca], minVersion: 'TLSv1.2' }, () => {
      resolve(socket.authorized ? 'ok' : String(socket.authorizationError));
      socket.end();
    });
    socket.once('error', (err: Error & { code?: string }) => resolve(err.code ?? err.message));
  });
}
