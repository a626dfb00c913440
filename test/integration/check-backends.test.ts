import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createUnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';

/**
 * `worker --check-backends` (issue 17): the operator's check before the first tenant. It reports
 * every configured backend, one line each, exits 0 only when all answer, and needs neither the
 * database nor Temporal (DATABASE_URL points nowhere here).
 */
let lab: LabBackends;
let selfHosted: RunningServer;
const LOGIN = { username: 'svc-check', password: 'check-login-password-MARK' };

function checkBackends(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/worker/main.ts', '--check-backends'],
      { env: { PATH: process.env.PATH ?? '', OPERATOR_TOKEN: 'op-check-backends-0123456789', DATABASE_URL: 'postgres://nobody:none@127.0.0.1:1/none', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

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
    const r = await checkBackends(lab.env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2).join(' ')).sort()).toEqual(['ok minio', 'ok powerdns', 'ok proxmox', 'ok recursor']);
    expect(r.stdout).toMatch(/ok\s+proxmox\s+\S+\s+Proxmox VE 8\.4\.1; node pve1 lists \d+ guests/);
    expect(r.stdout).toMatch(/ok\s+powerdns\s+\S+\s+PowerDNS Authoritative \d/);
  });

  it('names the backend that does not answer, exits 1, and prints no credential', async () => {
    const r = await checkBackends({ ...lab.env, SITE_PROXMOX_TOKEN_SECRET: 'wrong-secret-MARK' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+proxmox\s+\S+\s+GET \/version -> 401 invalid token value!/);
    expect(r.stdout).toMatch(/ok\s+powerdns/);
    for (const secret of ['wrong-secret-MARK', lab.env.SITE_PDNS_API_KEY!, lab.env.SITE_MINIO_SECRET_KEY!]) expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('reports a self-hosted Network application through its login, and a refused login without the password', async () => {
    const wifi = { SITE_WIFI_URL: selfHosted.url, SITE_WIFI_DEPLOYMENT: 'self-hosted', SITE_WIFI_USERNAME: LOGIN.username, SITE_WIFI_PASSWORD: LOGIN.password };
    const r = await checkBackends({ ...lab.env, ...wifi });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(/ok\s+wifi\s+\S+\s+UniFi Network \(self-hosted, login\) answers; site default has 2 WLANs/);
    const bad = await checkBackends({ ...lab.env, ...wifi, SITE_WIFI_PASSWORD: 'wrong-password-MARK' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL\s+wifi\s+\S+\s+login refused -> 400/);
    expect(bad.stdout + bad.stderr).not.toContain('MARK');
  });

  it('without a site it says what is missing (exit 2)', async () => {
    const r = await checkBackends({});
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
    const ok = await checkBackends(full.env);
    expect(ok.stdout).toMatch(/ok\s+dhcp\s+\S+\s+Kea DHCPv4 .*; device network \S+ holds every trust class's range/);
    const classes = { sensor: { ssid: 'lab-devices', vlan: 'tenant-devices', range: '10.99.0.10-10.99.0.20' } };
    const bad = await checkBackends({ ...full.env, SITE_TRUST_CLASSES: JSON.stringify(classes) });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL\s+dhcp\s+\S+\s+SITE_TRUST_CLASSES: trust class sensor: range 10\.99\.0\.10-10\.99\.0\.20 is not inside the device network /);
  });
});
