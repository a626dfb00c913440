import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { createPowerDnsAdapter } from '../../backends/powerdns/powerdns.js';
import { tenantDnsNames } from '../../backends/powerdns/names.js';
import { runCheckBackends } from '../support/check-backends.js';
import { nsupdate, startPowerDns, startRecursor, type RunningDnsServer } from '../support/pdns.js';
import { startCaddy } from '../../apps/lab/servers/caddy.js';
import { createFaultProxy } from '../../apps/lab/simulators/fault-proxy.js';
import { serveApp } from '../../apps/lab/simulators/serve.js';

/**
 * `--check-backends` proves the settings the service depends on, not only that each backend answers
 * (issue 45 item 1): each real server is started set up wrong, and the check names the setting and
 * its fix; set up right, it passes.
 */
let lab: LabBackends;
const started: RunningDnsServer[] = [];
const pdnsEnv = (s: RunningDnsServer) => ({ SITE_PDNS_URL: s.apiUrl, SITE_PDNS_API_KEY: s.apiKey });
const recursorEnv = (s: RunningDnsServer) => ({ SITE_RECURSOR_URL: s.apiUrl, SITE_RECURSOR_API_KEY: s.apiKey });
async function pdnsWith(settings: Record<string, string | undefined>): Promise<RunningDnsServer> {
  const s = await startPowerDns({ settings });
  started.push(s);
  return s;
}
async function recursorWith(settings: Record<string, string | undefined>): Promise<RunningDnsServer> {
  const s = await startRecursor({ settings });
  started.push(s);
  return s;
}
const line = (stdout: string, backend: string) => stdout.split('\n').find((l) => l.split(/\s+/)[1] === backend) ?? '';

beforeAll(async () => {
  lab = await startLabBackends({ minimal: true });
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  await lab?.stop();
});

describe('--check-backends: PowerDNS settings', () => {
  it('RFC 2136 updates off: the service writes through the API, the tenant is refused, and the check names dnsupdate', async () => {
    const off = await pdnsWith({ dnsupdate: 'no' });
    const spec = { tenant: 'acme', ...tenantDnsNames({ tenant: 'acme', index: 1, siteDomain: 'lab.example', supernet: '10.128.0.0/16' }) };
    const tenant = { ...spec, tsigSecret: randomBytes(32).toString('base64') };
    const dns = createPowerDnsAdapter({ apiUrl: off.apiUrl, apiKey: off.apiKey, nameservers: ['ns1.lab.example.'], updateServer: '' });
    await dns.ensure(tenant);
    const update = await nsupdate(off.dnsPort, tenant.zone, `hmac-sha256:${tenant.tsigKeyName}:${tenant.tsigSecret}`, [
      `update add a.${tenant.zone} 60 A 10.128.1.9`,
    ]);
    expect(update.ok).toBe(false);
    expect(update.output).toMatch(/REFUSED/);

    const r = await runCheckBackends({ ...lab.env, ...pdnsEnv(off) });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'powerdns')).toMatch(/^FAIL\s+powerdns\s+\S+\s+dnsupdate is off: .*set dnsupdate=yes in pdns\.conf/);
    const ok = await runCheckBackends(lab.env);
    expect(ok.code, ok.stdout).toBe(0);
    expect(line(ok.stdout, 'powerdns')).toMatch(/^ok\s+powerdns\s+\S+\s+PowerDNS Authoritative 4\.\d+\.\d+; RFC 2136 updates on$/);
    expect(r.stdout + ok.stdout).not.toContain(off.apiKey);
  });

  it("each PowerDNS URL naming the other server's API: the check says which one answered and where to point it", async () => {
    const swapped = {
      SITE_PDNS_URL: lab.env.SITE_RECURSOR_URL!,
      SITE_PDNS_API_KEY: lab.env.SITE_RECURSOR_API_KEY!,
      SITE_RECURSOR_URL: lab.env.SITE_PDNS_URL!,
      SITE_RECURSOR_API_KEY: lab.env.SITE_PDNS_API_KEY!,
    };
    const r = await runCheckBackends({ ...lab.env, ...swapped });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'powerdns')).toMatch(
      /^FAIL\s+powerdns\s+\S+\s+SITE_PDNS_URL answers as PowerDNS Recursor \(daemon_type recursor\): point it at PowerDNS Authoritative's API/,
    );
    expect(line(r.stdout, 'recursor')).toMatch(
      /^FAIL\s+recursor\s+\S+\s+SITE_RECURSOR_URL answers as PowerDNS Authoritative \(daemon_type authoritative\): point it at PowerDNS Recursor's API/,
    );
    expect(r.stdout).not.toContain(lab.env.SITE_PDNS_API_KEY!);
    expect(r.stdout).not.toContain(lab.env.SITE_RECURSOR_API_KEY!);
  });

  it('secondaries declared: primary mode, also-notify and allow-axfr-ips must name them; the catalog zone must be a producer', async () => {
    const declared = { SITE_DNS_SECONDARIES: '127.0.0.1:5399,[::1]:5399' };
    // The lab's PowerDNS: no primary mode, no also-notify; its allow-axfr-ips (127.0.0.0/8,::1) admits both.
    const r = await runCheckBackends({ ...lab.env, ...declared });
    expect(r.code).toBe(1);
    const plain = line(r.stdout, 'powerdns');
    expect(plain).toMatch(/primary is off: .*set primary=yes/);
    expect(plain).toMatch(/also-notify does not name secondary 1 of SITE_DNS_SECONDARIES: add it/);
    expect(plain).toMatch(/also-notify does not name secondary 2 of SITE_DNS_SECONDARIES/);
    expect(plain).not.toMatch(/allow-axfr-ips/);
    expect(plain).not.toMatch(/5399/);

    const narrow = await pdnsWith({ primary: 'yes', 'also-notify': '127.0.0.1:5399,[::1]:5399', 'allow-axfr-ips': '10.0.0.0/8,::1' });
    const n = await runCheckBackends({ ...lab.env, ...declared, ...pdnsEnv(narrow) });
    expect(line(n.stdout, 'powerdns')).toMatch(
      /^FAIL\s+powerdns\s+\S+\s+allow-axfr-ips does not admit secondary 1 of SITE_DNS_SECONDARIES: add its address to allow-axfr-ips$/,
    );

    const right = await pdnsWith({ primary: 'yes', 'also-notify': '127.0.0.1:5399 [::1]:5399' });
    const ok = await runCheckBackends({ ...lab.env, ...declared, ...pdnsEnv(right) });
    expect(ok.code, ok.stdout).toBe(0);
    expect(line(ok.stdout, 'powerdns')).toMatch(
      /RFC 2136 updates on; primary for 2 secondaries through catalog zone catalog\.lab\.example\. \(created with the next tenant\); a new tenant's zones reach them within xfr-cycle-interval \(60 s\)$/,
    );

    // A zone of the catalog's name that is not a producer: the operator's, named with the fix.
    const taken = await runCheckBackends({ ...lab.env, ...declared, ...pdnsEnv(right), SITE_DNS_CATALOG: 'acme.lab.example' });
    const dns = createPowerDnsAdapter({ apiUrl: right.apiUrl, apiKey: right.apiKey, nameservers: ['ns1.lab.example.'], updateServer: '' });
    await dns.ensure({
      tenant: 'acme',
      ...tenantDnsNames({ tenant: 'acme', index: 1, siteDomain: 'lab.example', supernet: '10.128.0.0/16' }),
      tsigSecret: randomBytes(32).toString('base64'),
    });
    const owned = await runCheckBackends({ ...lab.env, ...declared, ...pdnsEnv(right), SITE_DNS_CATALOG: 'acme.lab.example' });
    expect(taken.code, taken.stdout).toBe(0);
    expect(line(owned.stdout, 'powerdns')).toMatch(
      /zone acme\.lab\.example\. \(SITE_DNS_CATALOG\) is a Native zone, not a producer catalog: .*pdnsutil set-kind/,
    );
  });
});

describe('--check-backends: Recursor settings', () => {
  it('without api-config-dir every forward is refused: the check names it; with it, a forward of its own is added and removed', async () => {
    const bare = await recursorWith({ 'api-config-dir': undefined, 'include-dir': undefined });
    const r = await runCheckBackends({ ...lab.env, ...recursorEnv(bare) });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'recursor')).toMatch(
      /^FAIL\s+recursor\s+\S+\s+api-config-dir is not set: the Recursor refuses every forward zone the service adds \(422\); set api-config-dir and include-dir to the same directory/,
    );

    const ok = await runCheckBackends(lab.env);
    expect(line(ok.stdout, 'recursor')).toMatch(
      /^ok\s+recursor\s+\S+\s+PowerDNS Recursor 4\.\d+\.\d+; api-config-dir takes forward zones \(one added and removed\)$/,
    );
    // Nothing of the check is left: the lab's recursor lists no forward zone.
    const zones = (await (await fetch(`${lab.recursor.apiUrl}/servers/localhost/zones`, { headers: { 'X-API-Key': lab.recursor.apiKey } })).json()) as {
      kind: string;
    }[];
    expect(zones.filter((z) => z.kind === 'Forwarded')).toEqual([]);
  });

  it('api-config-dir not read back (include-dir elsewhere): every forward is written and never loaded', async () => {
    const lost = await recursorWith({ 'include-dir': undefined });
    const r = await runCheckBackends({ ...lab.env, ...recursorEnv(lost) });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'recursor')).toMatch(/^FAIL\s+recursor\s+\S+\s+include-dir is not api-config-dir: .*never loads it/);
  });
});

describe('--check-backends: the Caddy gateway', () => {
  it('takes writes as the adapter sends them (a no-op PATCH) and autosaves; each failing names the setting', async () => {
    const caddy = await startCaddy();
    // In front of the admin API, as a site's reverse proxy that lets reads through and refuses writes.
    const readOnly = createFaultProxy(caddy.adminUrl);
    const front = await serveApp(readOnly.app);
    try {
      const gateway = (adminUrl: string) => ({
        ...lab.env,
        SITE_LOG_URL: adminUrl,
        SITE_LOG_ENDPOINT: caddy.url,
        SITE_LOG_SERVER: caddy.server,
        SITE_LOG_UPSTREAM: '127.0.0.1:9',
      });
      const ok = await runCheckBackends(gateway(caddy.adminUrl));
      expect(ok.code, ok.stdout).toBe(0);
      expect(line(ok.stdout, 'log-store')).toMatch(
        /^ok\s+log-store\s+\S+\s+Caddy admin API takes reads and writes \(a no-op PATCH\); server logs is configured; its config is autosaved \(run Caddy with --resume\); routes a reload drops come back within SITE_LOG_ROUTE_CHECK_INTERVAL \(30 s\)$/,
      );

      readOnly.faults.add({ failNext: 1, status: 405, method: 'PATCH' });
      const refused = await runCheckBackends(gateway(front.url));
      expect(line(refused.stdout, 'log-store')).toMatch(
        /^FAIL\s+log-store\s+\S+\s+PATCH config -> 405 .*: the service writes every tenant route through the admin API; let the worker PUT, PATCH and DELETE there$/,
      );

      const noServer = await runCheckBackends({ ...gateway(caddy.adminUrl), SITE_LOG_SERVER: 'srv0' });
      expect(line(noServer.stdout, 'log-store')).toMatch(/FAIL\s+log-store\s+\S+\s+Caddy has no server srv0 \(SITE_LOG_SERVER\)/);

      const off = await fetch(`${caddy.adminUrl}/config/admin/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ persist: false }),
      });
      expect(off.status).toBe(200);
      const r = await runCheckBackends(gateway(caddy.adminUrl));
      expect(r.code).toBe(1);
      expect(line(r.stdout, 'log-store')).toMatch(
        /^FAIL\s+log-store\s+\S+\s+admin\.config\.persist is false: .*remove persist: false from the admin config and run Caddy with --resume$/,
      );

      // Last: with enforce_origin on, the admin API takes nothing without an Origin, this test's requests neither.
      const listen = new URL(caddy.adminUrl).host;
      const strict = await fetch(`${caddy.adminUrl}/config/admin`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ listen, enforce_origin: true, origins: [`http://${listen}`], config: { persist: false } }),
      });
      expect(strict.status).toBe(200);
      const o = await runCheckBackends(gateway(caddy.adminUrl));
      expect(line(o.stdout, 'log-store')).toMatch(
        /^FAIL\s+log-store\s+\S+\s+Caddy refuses requests without an allowed Origin header \(admin\.enforce_origin\)/,
      );
    } finally {
      await front.close();
      await caddy.stop();
    }
  });
});

describe('--check-backends: a lab set up wrong', () => {
  it('finds each misconfiguration of its real servers in one run', async () => {
    const wrong = await startLabBackends({
      minimal: true,
      serverSettings: { pdns: { dnsupdate: 'no', primary: 'no' }, recursor: { 'api-config-dir': undefined, 'include-dir': undefined } },
    });
    try {
      const r = await runCheckBackends({ ...wrong.env, SITE_DNS_SECONDARIES: '127.0.0.1:5399' });
      expect(r.code).toBe(1);
      expect(line(r.stdout, 'powerdns')).toMatch(
        /^FAIL\s+powerdns\s+\S+\s+dnsupdate is off: .*; primary is off: .*; also-notify does not name secondary 1 of SITE_DNS_SECONDARIES/,
      );
      expect(line(r.stdout, 'recursor')).toMatch(/^FAIL\s+recursor\s+\S+\s+api-config-dir is not set/);
      expect(line(r.stdout, 'proxmox')).toMatch(/^ok\s+/);
    } finally {
      await wrong.stop();
    }
  });
});
