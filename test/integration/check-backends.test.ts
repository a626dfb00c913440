import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckBackends } from '../support/check-backends.js';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createUnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';
import { createGrafanaSimulator } from '../../apps/lab/simulators/grafana/index.js';
import { createKeaAdapter } from '../../backends/kea/kea.js';
import { BackendError } from '../../core/backend-outcome.js';
import { connect, createServer, type AddressInfo } from 'node:net';
import { mkdir, rename, rm } from 'node:fs/promises';

/**
 * `worker --check-backends` (issue 17): the operator's check before the first tenant. It reports
 * every configured backend, one line each, exits 0 only when all answer, and needs neither the
 * database nor Temporal (DATABASE_URL points nowhere here).
 */
let lab: LabBackends;
let selfHosted: RunningServer;
const LOGIN = { username: 'svc-check', password: 'check-login-password-MARK' };

beforeAll(async () => {
  lab = await startLabBackends({ minimal: true });
  selfHosted = await serveApp(createUnifiSimulator({ deployment: 'self-hosted', login: LOGIN }).app);
});
afterAll(async () => {
  await lab?.stop();
  await selfHosted?.close();
});

describe('worker --check-backends', () => {
  it('reports each configured backend as answering and exits 0', async () => {
    const r = await runCheckBackends(lab.env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2).join(' ')).sort()).toEqual(['ok minio', 'ok powerdns', 'ok proxmox', 'ok recursor', 'ok sdn']);
    expect(r.stdout).toMatch(/ok\s+proxmox\s+\S+\s+Proxmox VE 9\.0\.\d+; node pve1 lists \d+ guests/);
    expect(r.stdout).toMatch(/ok\s+powerdns\s+\S+\s+PowerDNS Authoritative \d/);
  });

  it('names the backend that does not answer, exits 1, and prints no credential', async () => {
    const r = await runCheckBackends({ ...lab.env, SITE_PROXMOX_TOKEN_SECRET: 'wrong-secret-MARK' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+proxmox\s+\S+\s+GET \/version -> 401 invalid token value!/);
    expect(r.stdout).toMatch(/ok\s+powerdns/);
    for (const secret of ['wrong-secret-MARK', lab.env.SITE_PDNS_API_KEY!, lab.env.SITE_MINIO_SECRET_KEY!]) expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('reports a self-hosted Network application through its login, and a refused login without the password', async () => {
    const wifi = { SITE_WIFI_URL: selfHosted.url, SITE_WIFI_DEPLOYMENT: 'self-hosted', SITE_WIFI_USERNAME: LOGIN.username, SITE_WIFI_PASSWORD: LOGIN.password };
    const r = await runCheckBackends({ ...lab.env, ...wifi });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/ok\s+wifi\s+\S+\s+UniFi Network \(self-hosted, login\) answers; site default has 2 WLANs/);
    const bad = await runCheckBackends({ ...lab.env, ...wifi, SITE_WIFI_PASSWORD: 'wrong-password-MARK' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL\s+wifi\s+\S+\s+login refused -> 400/);
    expect(bad.stdout + bad.stderr).not.toContain('MARK');
  });

  it('names a WLAN the site configures that the controller does not have, with the fix', async () => {
    const wifi = { SITE_WIFI_URL: selfHosted.url, SITE_WIFI_DEPLOYMENT: 'self-hosted', SITE_WIFI_USERNAME: LOGIN.username, SITE_WIFI_PASSWORD: LOGIN.password };
    const developer = { SITE_WIFI_DEVELOPER_SSID: 'lab-dev', SITE_WIFI_DEVELOPER_VLAN: 'tenant-dev' };
    const ok = await runCheckBackends({ ...lab.env, ...wifi, ...developer });
    expect(ok.code, ok.stderr + ok.stdout).toBe(0);
    const r = await runCheckBackends({ ...lab.env, ...wifi, ...developer, SITE_WIFI_DEVELOPER_BOUND_SSID: 'lab-dev-bound' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+wifi\s+\S+\s+site default has no WLAN lab-dev-bound \(SITE_WIFI_DEVELOPER_BOUND_SSID\): create it on the controller/);
  });

  it('without a site it says what is missing (exit 2)', async () => {
    const r = await runCheckBackends({});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--check-backends needs a configured site/);
  });
});

describe('worker --check-backends at a site with DHCP', () => {
  let full: LabBackends;
  beforeAll(async () => {
    full = await startLabBackends();
  }, 120_000);
  afterAll(async () => {
    await full?.stop();
  });

  it("checks every trust class's range against the device network Kea serves (issue 27)", async () => {
    const ok = await runCheckBackends(full.env);
    expect(ok.stdout).toMatch(/ok\s+dhcp\s+\S+\s+Kea DHCPv4 .*; device network \S+ holds every trust class's range/);
    const classes = { sensor: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.99.0.10-10.99.0.20' } };
    const bad = await runCheckBackends({ ...full.env, SITE_TRUST_CLASSES: JSON.stringify(classes) });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /FAIL\s+dhcp\s+\S+\s+SITE_TRUST_CLASSES: trust class sensor: range 10\.99\.0\.10-10\.99\.0\.20 is not inside the device network /,
    );
  });

  it('a Grafana without the VictoriaLogs plugin: names the plugin and how to install it (issue 28 item 4)', async () => {
    expect((await runCheckBackends(full.env)).stdout).toMatch(
      /ok\s+grafana\s+\S+\s+signed in as \S+ \(server admin\); plugin victoriametrics-logs-datasource 0\.14\.1/,
    );
    const bare = await serveApp(createGrafanaSimulator({ adminUser: 'admin', adminPassword: 'grafana-admin-MARK', plugins: [] }).app);
    const old = await serveApp(
      createGrafanaSimulator({
        adminUser: 'admin',
        adminPassword: 'grafana-admin-MARK',
        plugins: [{ id: 'victorialogs-datasource', name: 'VictoriaLogs', version: '0.12.0' }],
      }).app,
    );
    try {
      const login = { SITE_GRAFANA_ADMIN_USER: 'admin', SITE_GRAFANA_ADMIN_PASSWORD: 'grafana-admin-MARK' };
      const r = await runCheckBackends({ ...full.env, ...login, SITE_GRAFANA_URL: bare.url });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /FAIL\s+grafana\s+\S+\s+the VictoriaLogs data source plugin \(victoriametrics-logs-datasource, 0\.13 or later\) is not installed: .*grafana cli plugins install victoriametrics-logs-datasource/,
      );
      const r2 = await runCheckBackends({ ...full.env, ...login, SITE_GRAFANA_URL: old.url });
      expect(r2.stdout).toMatch(/it has victorialogs-datasource, the plugin before 0\.13, whose id differs/);
      expect(r.stdout + r2.stdout).not.toContain('MARK');
    } finally {
      await bare.close();
      await old.close();
    }
  });

  it("Caddy's admin API refusing the Host it is reached by: names the cause and the fix (issue 28 item 5)", async () => {
    // As at a site reaching the admin API through another address (a forward, a NAT, a name):
    // real Caddy compares the Host header with the address it listens on (admin.go, checkHost).
    const admin = new URL(full.logStore!.caddy.adminUrl);
    const forward = createServer((client) => {
      const upstream = connect(Number(admin.port), admin.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => forward.listen(0, '127.0.0.1', resolve));
    try {
      const r = await runCheckBackends({ ...full.env, SITE_LOG_URL: `http://127.0.0.1:${(forward.address() as AddressInfo).port}` });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /FAIL\s+log-store\s+\S+\s+Caddy refuses this Host \(403 host not allowed\): .*set SITE_LOG_URL to that address, or add this one to admin\.origins/,
      );
    } finally {
      forward.close();
    }
  });

  it('a Kea that cannot write its configuration file: the check and a reservation both say so, and neither is retried (issue 28 item 6)', async () => {
    expect((await runCheckBackends(full.env)).stdout).toMatch(/ok\s+dhcp\s+.*its configuration file is writable/);
    const file = full.kea!.configFile;
    // Root writes any file: a directory where the file was is what no user can write.
    await rename(file, `${file}.saved`);
    await mkdir(file);
    try {
      const r = await runCheckBackends(full.env);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /FAIL\s+dhcp\s+\S+\s+config-write refused \(.+\): Kea cannot save its configuration, .*let the user kea-dhcp4 runs as write its configuration file/,
      );
      const kea = createKeaAdapter({ controlUrl: full.kea!.controlUrl, subnetId: Number(full.env.SITE_DHCP_SUBNET_ID) });
      const failed = await kea.ensure({ mac: '02:00:00:00:28:06', address: '10.200.0.250', hostname: 'w' }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(BackendError);
      expect((failed as BackendError).retryable).toBe(false);
      expect((failed as BackendError).detail).toMatch(/Kea cannot save its configuration/);
      await kea.remove({ address: '10.200.0.250' }).catch(() => undefined);
    } finally {
      await rm(file, { recursive: true });
      await rename(`${file}.saved`, file);
    }
  });
});
