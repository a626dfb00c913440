import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';

/**
 * `worker --check-backends` (issue 17): the operator's check before the first tenant. It reports
 * every configured backend, one line each, exits 0 only when all answer, and needs neither the
 * database nor Temporal (DATABASE_URL points nowhere here).
 */
let lab: LabBackends;

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
});
afterAll(async () => lab?.stop());

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

  it('without a site it says what is missing (exit 2)', async () => {
    const r = await checkBackends({});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--check-backends needs a configured site/);
  });
});
