/**
 * Tenant server certificates through the HTTP API, checked with real tools: `openssl req` makes
 * the signing requests, `openssl verify` and `openssl x509` read what was issued, and a node:tls
 * server presenting the certificate and its chain is accepted by a client trusting only the root.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLabCa, type LabCa } from '../../activities/certificates/lab-ca.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { hostileCsr, opensslIn, tamperedCsr } from '../support/csr.js';
import { createTenant, expectEachAnswers, readAndDeleteRoutes, TENANT_NOT_FOUND } from '../support/lab-calls.js';
import { expectUnauthorized } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

const run = promisify(execFile);
const DOMAIN = 'lab.example';
const DAY = 24 * 60 * 60 * 1000;

let site: TestSite;
let ca: LabCa;
let dir: string;
let acme: { api_token: string };
let other: { api_token: string };
const csr: Record<string, string> = {};
const key: Record<string, string> = {};

const openssl = (...args: string[]) => opensslIn(dir, ...args);

async function makeCsr(name: string, newkey: string[]): Promise<void> {
  ({ csr: csr[name], key: key[name] } = await hostileCsr(dir, name, newkey, 'acme.lab.example'));
}

/** The request with a byte inside its subject flipped. */
const tamper = (pem: string) => tamperedCsr(pem, (der) => der.indexOf(Buffer.from('evil.example')));

const put = (tenant: string, name: string, body: unknown, token?: string | null) =>
  site.call('PUT', `/v1/tenants/${tenant}/certificates/${name}`, { body, token });

async function moveNotAfter(tenant: string, name: string, daysLeft: number): Promise<void> {
  const at = new Date(Date.now() + daysLeft * DAY).toISOString();
  await site.registry.sql`update certificates set not_after = ${at}::timestamptz where tenant = ${tenant} and name = ${name}`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cert-e2e-'));
  // The issuing CA sits under a root, so the chain a server presents holds the intermediate.
  ca = await createLabCa({ keyType: 'rsa', intermediates: 1 });
  await writeFile(join(dir, 'root.pem'), ca.rootCertPem);
  const [s] = await Promise.all([
    startTestSite({ minimal: true, env: { SITE_CA_CERT: ca.caCertPem, SITE_CA_KEY: ca.caKeyPem, SITE_CA_CHAIN: ca.chainPem.join('\n') } }),
    makeCsr('rsa', ['-newkey', 'rsa:2048']),
    makeCsr('rsa2', ['-newkey', 'rsa:2048']),
    makeCsr('p256', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']),
    makeCsr('rsa1024', ['-newkey', 'rsa:1024']),
    makeCsr('p384', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384']),
    makeCsr('ed25519', ['-newkey', 'ed25519']),
  ]);
  site = s;
  acme = await createTenant(site, 'acme');
  other = await createTenant(site, 'other');
});

afterAll(async () => {
  await site?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('issuing a certificate', () => {
  let issued: any;
  beforeAll(async () => {
    const r = await put('acme', 'web', { csr: csr.rsa, names: ['www', 'api', 'www'] }, acme.api_token);
    expect(r.status, r.text).toBe(201);
    // Signed in the API: no run, so the answer names none (openapi.yaml documents no Run-Id here).
    expect(r.headers.get('run-id')).toBeNull();
    issued = r.body;
    await writeFile(join(dir, 'web.pem'), issued.certificate);
    await writeFile(join(dir, 'web-chain.pem'), issued.chain);
  });

  it('answers 201 with the certificate, the chain a server presents, and its public facts', () => {
    expect(issued).toMatchObject({
      name: 'web',
      fqdn: `web.acme.${DOMAIN}`,
      names: ['www', 'api'],
      dns_names: [`web.acme.${DOMAIN}`, `www.acme.${DOMAIN}`, `api.acme.${DOMAIN}`],
    });
    expect(issued.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    // The chain is the issuing intermediate: what follows the certificate in a server's handshake.
    expect(issued.chain.replace(/\s/g, '')).toBe(ca.caCertPem.replace(/\s/g, ''));
    expect(issued.serial).toMatch(/^[0-9A-F]{32}$/);
    const days = (Date.parse(issued.not_after) - Date.parse(issued.not_before)) / DAY;
    expect(days).toBe(365);
    expect(Date.parse(issued.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('openssl verifies it against the CA chain, as a TLS server certificate', async () => {
    const out = await openssl('verify', '-x509_strict', '-purpose', 'sslserver', '-CAfile', 'root.pem', '-untrusted', 'web-chain.pem', 'web.pem');
    expect(out).toContain('web.pem: OK');
  });

  it("openssl x509 shows the issuer's names, server usage and one-year validity, none of the request's", async () => {
    const text = await openssl('x509', '-in', 'web.pem', '-noout', '-text');
    expect(text).toContain(`Subject: CN = web.acme.${DOMAIN}`);
    expect(text).toMatch(new RegExp(`DNS:web\\.acme\\.lab\\.example, DNS:www\\.acme\\.lab\\.example, DNS:api\\.acme\\.lab\\.example`));
    expect(text).toContain('TLS Web Server Authentication');
    expect(text).not.toContain('TLS Web Client Authentication');
    expect(text).toContain('CA:FALSE');
    expect(text).not.toContain('evil.example');
    const dates = await openssl('x509', '-in', 'web.pem', '-noout', '-startdate', '-enddate');
    const start = Date.parse(/notBefore=(.*)/.exec(dates)![1]!);
    const end = Date.parse(/notAfter=(.*)/.exec(dates)![1]!);
    expect((end - start) / DAY).toBe(365);
  });

  it('a TLS server presenting it with the chain is accepted by a client trusting only the root, for each name', async () => {
    const server: Server = createServer({ cert: issued.certificate + issued.chain, key: key.rsa }, (s) => s.end('hello'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const hello = (servername: string) =>
      new Promise<string>((resolve, reject) => {
        const s = connect({ host: '127.0.0.1', port, servername, ca: ca.rootCertPem }, () => {
          let data = '';
          s.on('data', (d: Buffer) => (data += d.toString()));
          s.on('end', () => resolve(data));
        });
        s.on('error', reject);
      });
    try {
      for (const name of issued.dns_names) expect(await hello(name)).toBe('hello');
      await expect(hello(`other.acme.${DOMAIN}`)).rejects.toThrow(/altnames|does not match/i);
      // Without the chain the client cannot link the certificate to the root.
      const bare: Server = createServer({ cert: issued.certificate, key: key.rsa }, (s) => s.end('hello'));
      await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
      const barePort = (bare.address() as { port: number }).port;
      await expect(
        new Promise((resolve, reject) => {
          const s = connect({ host: '127.0.0.1', port: barePort, servername: issued.fqdn, ca: ca.rootCertPem }, () => resolve(s.end()));
          s.on('error', reject);
        }),
      ).rejects.toThrow(/issuer|verify the first certificate/i);
      await new Promise((r) => bare.close(r));
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('an ECDSA P-256 key is accepted too', async () => {
    const r = await put('acme', 'mqtt', { csr: csr.p256 }, acme.api_token);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: 'mqtt', fqdn: `mqtt.acme.${DOMAIN}`, names: [], dns_names: [`mqtt.acme.${DOMAIN}`] });
    await writeFile(join(dir, 'mqtt.pem'), r.body.certificate);
    await writeFile(join(dir, 'mqtt-chain.pem'), r.body.chain);
    expect(await openssl('verify', '-purpose', 'sslserver', '-CAfile', 'root.pem', '-untrusted', 'mqtt-chain.pem', 'mqtt.pem')).toContain('OK');
  });

  it('GET answers the current certificate; the list has one per name', async () => {
    const one = await site.call('GET', '/v1/tenants/acme/certificates/web', { token: acme.api_token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(issued);
    const list = await site.call('GET', '/v1/tenants/acme/certificates');
    expect(list.status).toBe(200);
    expect(list.body.certificates.map((c: any) => c.name)).toEqual(['mqtt', 'web']);
  });
});

describe('the reuse rule', () => {
  let first: any;
  beforeAll(async () => {
    const r = await put('acme', 'api', { csr: csr.rsa2, names: ['a', 'b'] });
    expect(r.status, r.text).toBe(201);
    first = r.body;
  });

  it('the same key and names with more than 60 days left give the same certificate (200)', async () => {
    const r = await put('acme', 'api', { csr: csr.rsa2, names: ['b', 'a'] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual(first);
  });

  it('a new key gives a new certificate (201)', async () => {
    const r = await put('acme', 'api', { csr: csr.p256, names: ['a', 'b'] });
    expect(r.status, r.text).toBe(201);
    expect(r.body.serial).not.toBe(first.serial);
    first = r.body;
  });

  it('a changed name gives a new certificate (201)', async () => {
    const r = await put('acme', 'api', { csr: csr.p256, names: ['a', 'c'] });
    expect(r.status, r.text).toBe(201);
    expect(r.body.dns_names).toEqual([`api.acme.${DOMAIN}`, `a.acme.${DOMAIN}`, `c.acme.${DOMAIN}`]);
    expect(r.body.serial).not.toBe(first.serial);
    first = r.body;
  });

  it('61 days left: still the same; 60 days or less: a new one', async () => {
    await moveNotAfter('acme', 'api', 61);
    const kept = await put('acme', 'api', { csr: csr.p256, names: ['a', 'c'] });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.serial).toBe(first.serial);

    await moveNotAfter('acme', 'api', 59.9);
    const renewed = await put('acme', 'api', { csr: csr.p256, names: ['a', 'c'] });
    expect(renewed.status, renewed.text).toBe(201);
    expect(renewed.body.serial).not.toBe(first.serial);
    expect((Date.parse(renewed.body.not_after) - Date.now()) / DAY).toBeGreaterThan(364);
    // The earlier certificate was not revoked: it still verifies (no CRL, nothing to revoke).
    await writeFile(join(dir, 'old.pem'), first.certificate);
    await writeFile(join(dir, 'old-chain.pem'), first.chain);
    expect(await openssl('verify', '-CAfile', 'root.pem', '-untrusted', 'old-chain.pem', 'old.pem')).toContain('OK');
  });
});

describe('refusals', () => {
  it.each([
    ['an RSA key under 2048 bits', () => ({ csr: csr.rsa1024 }), 'csr: RSA key of 1024 bits; at least 2048 are required'],
    ['an EC key not on P-256', () => ({ csr: csr.p384 }), 'csr: EC key on secp384r1; only P-256 is accepted'],
    ['an Ed25519 key', () => ({ csr: csr.ed25519 }), 'csr: ed25519 keys are not accepted; use RSA (2048 bits or more) or ECDSA P-256'],
    ['a request not signed by its own key', () => ({ csr: tamper(csr.rsa!) }), 'csr: the request is not signed by its own key'],
    ['a private key instead of a request', () => ({ csr: key.p256 }), /^csr: /],
    ['not PEM at all', () => ({ csr: 'hello' }), /^csr: /],
    [
      'a label with a dot',
      () => ({ csr: csr.rsa, names: ['a.b'] }),
      'names entry "a.b": a dot is not allowed: entries are labels in acme.lab.example, and a name outside it cannot be certified',
    ],
    ['a name outside the zone', () => ({ csr: csr.rsa, names: ['evil.example'] }), /^names entry "evil.example": a dot is not allowed/],
    [
      'a full name inside the zone',
      () => ({ csr: csr.rsa, names: ['www.acme.lab.example'] }),
      'names entry "www.acme.lab.example": a name, not a label: give only the part before ".acme.lab.example"',
    ],
    ['a wildcard', () => ({ csr: csr.rsa, names: ['*'] }), 'names entry "*": wildcards are not allowed'],
    ['an address', () => ({ csr: csr.rsa, names: ['10.0.0.1'] }), 'names entry "10.0.0.1": addresses are not allowed'],
    ['an IPv6 address', () => ({ csr: csr.rsa, names: ['::1'] }), 'names entry "::1": addresses are not allowed'],
    ['an unknown field', () => ({ csr: csr.rsa, subject: 'x' }), 'unknown field "subject"'],
    ['no csr', () => ({ names: [] }), 'csr: required'],
  ])('400 for %s, with the reason', async (_why, body, reason) => {
    const r = await put('acme', 'bad', body());
    expect(r.status, r.text).toBe(400);
    if (typeof reason === 'string') expect(r.body).toEqual({ error: reason });
    else expect(r.body.error).toMatch(reason);
    expectStatus(await site.call('GET', '/v1/tenants/acme/certificates/bad'), 404, site.logs);
  });

  it('400 for a certificate name that is not a label of the pattern', async () => {
    for (const name of ['Web', '1web', 'a'.repeat(21), 'we_b']) {
      const r = await put('acme', name, { csr: csr.rsa });
      expect(r.status, name).toBe(400);
      expect(r.body).toEqual({ error: 'certificate: must match ^[a-z][a-z0-9-]{0,19}$' });
    }
  });

  it('401 without a token or with an unknown one', async () => {
    expectUnauthorized(await put('acme', 'web', { csr: csr.rsa }, null));
    expectUnauthorized(await site.call('GET', '/v1/tenants/acme/certificates', { token: 'nope' }));
  });

  it("404 for another tenant's token, an unknown tenant, or an unknown certificate", async () => {
    await expectEachAnswers(site, readAndDeleteRoutes('/v1/tenants/acme/certificates', 'web'), TENANT_NOT_FOUND, other.api_token);
    expect((await put('acme', 'web', { csr: csr.rsa }, other.api_token)).body).toEqual({ error: 'tenant not found' });
    expect((await put('nobody', 'web', { csr: csr.rsa })).body).toEqual({ error: 'tenant not found' });
    expectStatus(await site.call('GET', '/v1/tenants/nobody/certificates'), 404, site.logs);
    const unknown = await site.call('GET', '/v1/tenants/acme/certificates/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'certificate not found' });
    expect((await site.call('GET', '/v1/tenants/other/certificates', { token: other.api_token })).body).toEqual({ certificates: [] });
  });
});

describe('deleting a certificate', () => {
  it('forgets it (204) without revoking it; a second delete is 404', async () => {
    const r = await put('acme', 'gone', { csr: csr.rsa });
    expect(r.status).toBe(201);
    const d = await site.call('DELETE', '/v1/tenants/acme/certificates/gone', { token: acme.api_token });
    expect(d.status, d.text).toBe(204);
    expectStatus(await site.call('GET', '/v1/tenants/acme/certificates/gone'), 404, site.logs);
    const again = await site.call('DELETE', '/v1/tenants/acme/certificates/gone');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'certificate not found' });
    // Forgotten, not revoked: the same request now issues a new certificate.
    const next = await put('acme', 'gone', { csr: csr.rsa });
    expect(next.status).toBe(201);
    expect(next.body.serial).not.toBe(r.body.serial);
  });

  it("a tenant delete forgets the tenant's certificates", async () => {
    const t = await site.call('POST', '/v1/tenants', { body: { name: 'brief' } });
    expect(t.status, t.text).toBe(201);
    expect((await put('brief', 'web', { csr: csr.rsa })).status).toBe(201);
    site.backends.proxmox.removeTenantNetwork('brief');
    expectStatus(await site.call('DELETE', '/v1/tenants/brief'), 204, site.logs);
    const rows = await site.registry.sql`select 1 from certificates where tenant = 'brief'`;
    expect(rows.length).toBe(0);
  });
});

describe('sites without a working CA', () => {
  let bare: TestSite;
  let expired: TestSite;
  beforeAll(async () => {
    // A CA whose certificate ran out yesterday: signing fails at the CA, not at the request.
    const old = await createLabCa({ now: new Date(Date.now() - 3 * DAY), days: 1 });
    [bare, expired] = await Promise.all([
      startTestSite({ minimal: true }),
      startTestSite({ minimal: true, env: { SITE_CA_CERT: old.caCertPem, SITE_CA_KEY: old.caKeyPem } }),
    ]);
    for (const s of [bare, expired]) expectStatus(await s.call('POST', '/v1/tenants', { body: { name: 'acme' } }), 201);
  });
  afterAll(async () => {
    await Promise.all([bare?.stop(), expired?.stop()]);
  });

  it('with no tenant service CA every certificate route refuses with 501 and the reason', async () => {
    await expectEachAnswers(
      bare,
      [['PUT', '/v1/tenants/acme/certificates/web', { csr: csr.rsa }], ...readAndDeleteRoutes('/v1/tenants/acme/certificates', 'web')],
      { status: 501, body: { error: 'no tenant service CA at this site' } },
    );
  });

  it('a CA that cannot sign answers 502 naming the step only', async () => {
    const r = await expired.call('PUT', '/v1/tenants/acme/certificates/web', { body: { csr: csr.rsa } });
    expect(r.status, r.text).toBe(502);
    expect(r.body).toEqual({ error: 'backend step "ca" failed' });
    expect(expired.logs.some((l) => l.includes('the tenant service CA certificate has expired'))).toBe(true);
    expectStatus(await expired.call('GET', '/v1/tenants/acme/certificates/web'), 404);
  });
});

describe('tenantctl certificate put --out', () => {
  it('writes the certificate and the chain a server presents to the file, which openssl verifies', async () => {
    const out = join(dir, 'tenantctl-web.pem');
    await writeFile(join(dir, 'tenantctl.csr'), csr.p256!);
    const { stderr } = await run(
      process.execPath,
      ['bin/tenantctl.mjs', 'certificate', 'put', 'acme', 'cli', '--csr-file', join(dir, 'tenantctl.csr'), '--out', out, '--output', 'json'],
      {
        env: { PATH: process.env.PATH ?? '', TENANT_API_URL: site.url, TENANT_API_TOKEN: acme.api_token },
      },
    );
    expect(stderr).not.toMatch(/refused|cannot/);
    const pem = await readFile(out, 'utf8');
    const held = (await site.call('GET', '/v1/tenants/acme/certificates/cli')).body as { certificate: string; chain: string };
    expect(pem).toBe(`${held.certificate.trimEnd()}\n${held.chain.trimEnd()}\n`);
    expect(pem.match(/-----BEGIN CERTIFICATE-----/g)!.length).toBeGreaterThan(1);
    await writeFile(join(dir, 'leaf.pem'), pem.slice(0, pem.indexOf('-----END CERTIFICATE-----') + 25));
    await writeFile(join(dir, 'presented-chain.pem'), pem.slice(pem.indexOf('-----END CERTIFICATE-----') + 26));
    expect(await openssl('verify', '-CAfile', 'root.pem', '-untrusted', 'presented-chain.pem', 'leaf.pem')).toMatch(/leaf\.pem: OK/);
  });
});
