import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../apps/config/env.js';
import type { Site } from '../../activities/site.js';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { startMosquitto, type RunningMosquitto } from '../../apps/lab/servers/mosquitto.js';
import { createFaultProxy } from '../../apps/lab/simulators/fault-proxy.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { checkBackends } from '../../apps/worker/check-backends.js';
import { bindPorts } from '../../activities/backend-areas.js';
import { stateAccessKey } from '../../core/identity.js';
import { createPrivateCa, type PrivateCa } from '../support/private-ca.js';

/**
 * Every backend over TLS with a certificate from the site's own CA (issue 17, item 2), as a real
 * site has them: Proxmox's cluster CA, a UniFi console's self-signed one. The lab's servers and
 * simulators are served over HTTPS (the real PowerDNS, Recursor and Kea behind a TLS front, the
 * real Mosquitto with its own TLS listener) with a certificate a private CA signed. The service
 * connects when given that CA (site-wide or per backend) and refuses, as a setting to fix, when
 * not: verification is never skipped.
 */
const required = { OPERATOR_TOKEN: 'op-tls-backends-0123456789', DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/none' };
let ca: PrivateCa;
let lab: LabBackends;
let mqtts: RunningMosquitto;
const servers: RunningServer[] = [];
let tlsEnv: Record<string, string>;

// `sdn`: Proxmox's SDN line, over the same API and bundle as `proxmox`.
const HTTPS_BACKENDS = ['powerdns', 'recursor', 'minio', 'proxmox', 'sdn', 'log-store', 'grafana', 'wifi', 'dhcp'];
const ALL_BACKENDS = [...HTTPS_BACKENDS, 'broker'];

async function overTls(app: Parameters<typeof serveApp>[0]): Promise<string> {
  const s = await serveApp(app, 0, ca.server);
  servers.push(s);
  return s.url;
}

/** A TLS front for a real server's plain HTTP API, keeping the URL's path. */
async function frontOf(url: string): Promise<string> {
  const u = new URL(url);
  return `${await overTls(createFaultProxy(u.origin).app)}${u.pathname}`;
}

const siteWith = (extra: Record<string, string>): Site => loadConfig({ ...required, ...tlsEnv, ...extra }).site!;

beforeAll(async () => {
  ca = createPrivateCa();
  lab = await startLabBackends();
  mqtts = await startMosquitto({ tls: ca.server });
  tlsEnv = {
    ...lab.env,
    SITE_PDNS_URL: await frontOf(lab.env.SITE_PDNS_URL!),
    SITE_RECURSOR_URL: await frontOf(lab.env.SITE_RECURSOR_URL!),
    SITE_DHCP_URL: await frontOf(lab.env.SITE_DHCP_URL!),
    SITE_MINIO_URL: await overTls(lab.minio.app),
    SITE_PROXMOX_URL: `${await overTls(lab.proxmox.app)}/api2/json`,
    SITE_LOG_URL: await frontOf(lab.env.SITE_LOG_URL!),
    SITE_GRAFANA_URL: await overTls(lab.grafana!.app),
    SITE_WIFI_URL: await overTls(lab.unifi!.app),
    SITE_BROKER_URL: mqtts.url,
    SITE_BROKER_ADMIN_USER: mqtts.adminUser,
    SITE_BROKER_ADMIN_PASSWORD: mqtts.adminPassword,
  };
  for (const [k, v] of Object.entries(tlsEnv)) if (k.endsWith('_URL') && k !== 'SITE_BROKER_URL') expect(v, k).toMatch(/^https:\/\//);
  expect(mqtts.url).toMatch(/^mqtts:\/\//);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await mqtts?.stop();
  await lab?.stop();
  ca?.remove();
});

describe('the backend check (worker --check-backends)', () => {
  it('with the site-wide CA bundle, every configured backend answers over TLS', async () => {
    const checks = await checkBackends(siteWith({ SITE_BACKEND_CA_FILE: ca.caFile }));
    expect(checks.map((c) => c.backend).sort()).toEqual([...ALL_BACKENDS].sort());
    for (const c of checks) expect(c, `${c.backend}: ${c.detail}`).toMatchObject({ ok: true });
    expect(checks.find((c) => c.backend === 'proxmox')?.detail).toMatch(/^Proxmox VE 9\.\d+\.\d+; node pve1 lists \d+ guests$/);
  });

  it('without it, every backend is refused as a certificate not trusted (public roots only)', async () => {
    const checks = await checkBackends(siteWith({}), { timeoutMs: 3000 });
    for (const c of checks) {
      expect(c.ok, c.backend).toBe(false);
      if (c.backend !== 'broker')
        expect(c.detail, c.backend).toMatch(
          /certificate not trusted \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)/,
        );
      else expect(c.detail).toMatch(/certificate/);
    }
  });

  it('with another CA it is refused too; a per-backend bundle overrides the site-wide one', async () => {
    const checks = await checkBackends(siteWith({ SITE_BACKEND_CA_FILE: ca.otherCaFile, SITE_PROXMOX_CA_FILE: ca.caFile, SITE_WIFI_CA_FILE: ca.caFile }), {
      timeoutMs: 3000,
    });
    const ok = checks
      .filter((c) => c.ok)
      .map((c) => c.backend)
      .sort();
    expect(ok).toEqual(['proxmox', 'sdn', 'wifi']);
  });
});

describe('the adapters over TLS with the private CA', () => {
  it('each adapter does its work against its backend', async () => {
    const ports = bindPorts(siteWith({ SITE_BACKEND_CA_FILE: ca.caFile }));
    expect((await ports.hypervisor.newestTemplate()).name).toBe('tmpl-debian-12');
    expect(await ports.network.usedIndexes()).toBeInstanceOf(Map);
    expect(await ports.dns.listRecords('tls-none.lab.example.')).toEqual([]);
    await ports.resolver.ensure({ zones: ['tlsx.lab.example'] });
    await ports.resolver.remove({ zones: ['tlsx.lab.example'] });
    const secretKey = randomBytes(12).toString('hex');
    await ports.state.ensure({ tenant: 'tlsx', accessKey: stateAccessKey('tlsx'), secretKey, prefix: 'tlsx/' });
    await ports.state.remove({ tenant: 'tlsx', accessKey: stateAccessKey('tlsx') });
    await ports.logStore!.ensure({ tenant: 'tlsx', accountId: 1999, ingestToken: randomBytes(16).toString('hex'), readToken: randomBytes(16).toString('hex') });
    await ports.logStore!.remove({ tenant: 'tlsx' });
    await ports.dashboards!.ensure({
      tenant: 'tlsx',
      username: 'tlsx-viewer',
      password: `Aa1!${randomBytes(12).toString('hex')}`,
      accountId: 1999,
      readToken: randomBytes(16).toString('hex'),
    });
    await ports.dashboards!.remove({ tenant: 'tlsx', username: 'tlsx-viewer' });
    expect(await ports.wifi!.observe({ ssid: 'lab-devices', keyId: 'tlsx', fingerprint: 'none' })).toBeUndefined();
    expect(Array.isArray(await ports.deviceAddress!.list())).toBe(true);
    try {
      expect(await ports.broker!.listClients('tlsx')).toEqual([]);
    } finally {
      await ports.broker!.close();
    }
  });

  it('an adapter without the CA fails on the certificate, as a refusal (not retried)', async () => {
    const ports = bindPorts(siteWith({}));
    const err = (await ports.hypervisor.newestTemplate().catch((e: unknown) => e)) as { detail: string; retryable: boolean };
    expect(err.detail).toMatch(/certificate not trusted/);
    expect(err.retryable).toBe(false);
  });
});
