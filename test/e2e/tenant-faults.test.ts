import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Faults } from '../../apps/lab/simulators/faults.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { faulted } from '../support/lab-calls.js';
import { expectStatus } from '../support/answer.js';

/**
 * Backend faults: each step failing answers 502 with the partial tenant and its secrets; the same
 * call resumes on the same identity; concurrent creates converge; a slow backend is bounded.
 */
let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.stop();
});

interface StepFault {
  step: string;
  faults: () => Faults;
  match: string;
  method?: string;
}

const STEP_FAULTS: StepFault[] = [
  { step: 'dns', faults: () => site.backends.pdns.faults, match: '/zones' },
  { step: 'resolver', faults: () => site.backends.recursor.faults, match: '/zones' },
  { step: 'state', faults: () => site.backends.minio.faults, match: '/minio/admin' },
  // Only the writes: reading the fabric to choose the index happens before the tenant exists.
  { step: 'network', faults: () => site.backends.proxmox.faults, match: '/cluster/sdn', method: 'POST' },
  { step: 'log-store', faults: () => site.backends.logStore!.faults, match: '/config' },
  { step: 'dashboards', faults: () => site.backends.grafana!.faults, match: '/api/' },
];

function countObjects(name: string) {
  const zone = `${name}.lab.example.`;
  return Promise.all([
    fetch(`${site.backends.pdns.apiUrl}/servers/localhost/zones`, { headers: { 'X-API-Key': site.backends.pdns.apiKey } })
      .then((r) => r.json() as Promise<{ name: string }[]>)
      .then((zs) => zs.filter((z) => z.name === zone).length),
  ]).then(([zones]) => ({
    zones,
    fabricZones: [...site.backends.proxmox.state.sdn.config.zones.keys()].filter((z) => z === name).length,
    vnets: [...site.backends.proxmox.state.sdn.config.vnets.values()].filter((v) => v.zone === name).length,
    orgs: [...site.backends.grafana!.state.orgs.values()].filter((o: any) => o.name === name).length,
  }));
}

describe.each(STEP_FAULTS.map((f, i) => ({ ...f, name: `flt${i}` })))('the $step step failing', ({ step, faults, match, method, name }) => {
  it(`answers 502 with the partial tenant and its secrets, and the repeat resumes (${step})`, async () => {
    faults().add({ failNext: 1000, status: 500, match, method });
    let failed;
    try {
      failed = await site.call('POST', '/v1/tenants', { body: { name } });
    } finally {
      faults().clear();
    }
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error).toBe(`backend step "${step}" failed`);
    expect(Object.keys(failed.body).sort()).toEqual(['error', 'failure', 'tenant']);
    // Beside the spec's text, what to do: the failed step and the backend's answer, no host, no secret.
    expect(failed.body.failure).toMatchObject({ step, reason: 'BackendFailed', status: 500 });
    expect(failed.body.failure.answer).toMatch(/-> 500/);
    expect(JSON.stringify(failed.body.failure)).not.toMatch(/127\.0\.0\.1|localhost:|https?:\/\/(?!\[backend\])/);
    const partial = failed.body.tenant;
    expect(partial.status).toBe('provisioning');
    expect(partial.dns.tsig_secret).toBeTruthy();
    expect(partial.state.secret_key).toBeTruthy();
    expect(partial.api_token).toBeTruthy();
    expect(partial.steps.find((s: any) => s.name === step)).toMatchObject({ ok: false });
    // The error text names only the step: no backend host, no secret.
    expect(failed.body.error).not.toMatch(/127\.0\.0\.1|localhost|http/);

    const read = await site.call('GET', `/v1/tenants/${name}`);
    expect(read.body.status).toBe('provisioning');
    // The read says why: the run parked after the step, with the backend's answer the 502 gave.
    expect(read.body.condition).toMatchObject({
      ready: false,
      run: { id: `tenant-create/${name}`, operation: 'tenant-create', state: 'parked' },
      failure: failed.body.failure,
    });
    // Engineers find the parked run by its failed step in the Temporal UI.
    const run = await site.client.workflow.getHandle(`tenant-create/${name}`).describe();
    expect(run.searchAttributes.Step).toEqual([step]);

    const resumed = await site.call('POST', '/v1/tenants', { body: { name } });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.outcome).toBe('resumed');
    expect(resumed.body.status).toBe('ready');
    expect(resumed.body.index).toBe(partial.index);
    expect(resumed.body.dns.tsig_secret).toBe(partial.dns.tsig_secret);
    expect(resumed.body.state.secret_key).toBe(partial.state.secret_key);
    expect(resumed.body.log.read_token).toBe(partial.log.read_token);
    expect(resumed.body.dashboard.password).toBe(partial.dashboard.password);
    // A resume without secrets issues a new API token; the old one is revoked.
    expect(resumed.body.api_token).not.toBe(partial.api_token);
    expectStatus(await site.call('GET', `/v1/tenants/${name}`, { token: partial.api_token }), 401, site.logs);
    expectStatus(await site.call('GET', `/v1/tenants/${name}`, { token: resumed.body.api_token }), 200, site.logs);
    expect(resumed.body.steps.every((s: any) => s.ok)).toBe(true);
    expect(await countObjects(name)).toEqual({ zones: 1, fabricZones: 1, vnets: 1, orgs: 1 });
    const ready = await site.call('GET', `/v1/tenants/${name}`);
    expect(ready.body.condition).toMatchObject({ ready: true, run: { id: `tenant-create/${name}`, state: 'done' } });
    expect(ready.body.condition.failure).toBeUndefined();
  });
});

describe('a transient fault', () => {
  it('is retried within the attempt from the failed step: the steps before it are not run again', async () => {
    const logStore = site.backends.logStore!.faults;
    // Baseline: what the log-store step (the one before dashboards) asks of its backend for a new tenant.
    let before = logStore.seen('/config');
    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'trq1' } }), 201, site.logs);
    const perCreate = logStore.seen('/config') - before;
    expect(perCreate).toBeGreaterThan(0);

    // Twice: a step has three attempts for transient faults.
    site.backends.grafana!.faults.add({ failNext: 2, status: 503, match: '/api/' });
    before = logStore.seen('/config');
    const r = await site.call('POST', '/v1/tenants', { body: { name: 'trq2' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.steps.every((s: any) => s.ok)).toBe(true);
    expect(logStore.seen('/config') - before).toBe(perCreate);
    expect(await countObjects('trq2')).toEqual({ zones: 1, fabricZones: 1, vnets: 1, orgs: 1 });
  });

  it('that persists is tried three times, then the step is reported failed (502)', async () => {
    const grafana = site.backends.grafana!.faults;
    grafana.add({ failNext: 1000, status: 503, match: '/api/orgs/name/' });
    const before = grafana.seen('/api/orgs/name/');
    let r;
    try {
      r = await site.call('POST', '/v1/tenants', { body: { name: 'trq3' } });
    } finally {
      grafana.clear();
    }
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "dashboards" failed');
    // The step's first call, once per attempt.
    expect(grafana.seen('/api/orgs/name/') - before).toBe(3);
  });
});

describe('concurrency', () => {
  it('five identical concurrent creates of a new name converge on one index and one set of secrets', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => site.call('POST', '/v1/tenants', { body: { name: 'same' } })));
    for (const a of answers) expect(a.status, a.text).toBe(201);
    expect(new Set(answers.map((a) => a.body.index)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.dns.tsig_secret)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.state.secret_key)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.api_token)).size).toBe(1);
    expect(await countObjects('same')).toEqual({ zones: 1, fabricZones: 1, vnets: 1, orgs: 1 });
  });

  it('concurrent creates of different names never share an index', async () => {
    const names = ['par1', 'par2', 'par3', 'par4'];
    const answers = await Promise.all(names.map((name) => site.call('POST', '/v1/tenants', { body: { name } })));
    for (const a of answers) expect(a.status, a.text).toBe(201);
    expect(new Set(answers.map((a) => a.body.index)).size).toBe(names.length);
  });
});

describe('a slow backend', () => {
  it('fails the step (502) after three attempts each cut by the backend timeout, never a hang; the repeat resumes once it answers', async () => {
    const logsAt = site.logs.length;
    const r = await faulted(site.backends.minio.faults, { latencyMs: 6000 }, () => site.call('POST', '/v1/tenants', { body: { name: 'slow' } }));
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "state" failed');
    // An answer, not a hang: each of the step's three attempts was cut by SITE_BACKEND_TIMEOUT.
    const failures = site.logs.slice(logsAt).filter((l) => l.includes('"step":"state"') && l.includes('backend step failed'));
    expect(failures).toHaveLength(3);
    const resumed = await site.call('POST', '/v1/tenants', { body: { name: 'slow' } });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.outcome).toBe('resumed');
  });

  it('a create whose fabric cannot be read answers 502 for the network step and registers nothing', async () => {
    const r = await faulted(site.backends.proxmox.faults, { failNext: 1000, status: 500, match: '/cluster/sdn', method: 'GET' }, () =>
      site.call('POST', '/v1/tenants', { body: { name: 'nofab' } }),
    );
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "network" failed', failure: { step: 'network', backend: 'proxmox', status: 500 } });
    expect(Object.keys(r.body).sort()).toEqual(['error', 'failure']);
    expectStatus(await site.call('GET', '/v1/tenants/nofab'), 404, site.logs);
    const again = await site.call('POST', '/v1/tenants', { body: { name: 'nofab' } });
    expect(again.status, again.text).toBe(201);
  });
});

describe('a failed delete', () => {
  it('leaves the tenant deleting (502); a second delete resumes it (204)', async () => {
    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'delf' } }), 201, site.logs);
    site.backends.proxmox.removeTenantNetwork('delf');
    const r = await faulted(site.backends.minio.faults, { failNext: 1000, status: 500, match: '/minio/admin' }, () => site.call('DELETE', '/v1/tenants/delf'));
    expect(r.status, r.text).toBe(502);
    expect(r.body).toMatchObject({ error: 'backend step "state" failed', failure: { step: 'state', activity: 'state.remove', backend: 'minio', status: 500 } });
    const deleting = (await site.call('GET', '/v1/tenants/delf')).body;
    expect(deleting.status).toBe('deleting');
    expect(deleting.condition).toMatchObject({ ready: false, run: { id: 'tenant-delete/delf', state: 'parked' }, failure: r.body.failure });
    const again = await site.call('DELETE', '/v1/tenants/delf');
    expect(again.status, again.text).toBe(204);
    expectStatus(await site.call('GET', '/v1/tenants/delf'), 404, site.logs);
  });
});

describe('a failed reconcile', () => {
  it('answers 502 naming the step, with the tenant; the repeat reconciles (200)', async () => {
    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'recf' } }), 201, site.logs);
    const r = await faulted(site.backends.minio.faults, { failNext: 1000, status: 500, match: '/minio/admin' }, () =>
      site.call('POST', '/v1/tenants/recf/reconcile'),
    );
    expect(r.status, r.text).toBe(502);
    expect(r.body.error).toBe('backend step "state" failed');
    expect(r.body.error).not.toMatch(/127\.0\.0\.1|localhost|http/);
    const again = await site.call('POST', '/v1/tenants/recf/reconcile');
    expect(again.status, again.text).toBe(200);
    expect(again.body.outcome).toBe('reconciled');
    expect(again.body.steps.every((s: any) => s.ok)).toBe(true);
  });
});

describe('the worker killed in the middle of a create', () => {
  it('the create completes after the worker restarts, with no duplicate backend objects', async () => {
    await site.stopWorker();
    let child = site.spawnWorker();
    try {
      // Slow the fabric so the kill lands while the network step runs.
      site.backends.proxmox.faults.add({ latencyMs: 1200 });
      const pending = site.call('POST', '/v1/tenants', { body: { name: 'crash' } });
      await waitFor(async () => {
        const rows = await site.registry.sql`select name from steps where tenant = 'crash' and ok`;
        return rows.some((r) => r.name === 'state');
      }, 30_000);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      site.backends.proxmox.faults.clear();
      child = site.spawnWorker();
      const r = await pending;
      expect(r.status, r.text).toBe(201);
      expect(r.body.status).toBe('ready');
      expect(await countObjects('crash')).toEqual({ zones: 1, fabricZones: 1, vnets: 1, orgs: 1 });
    } finally {
      site.backends.proxmox.faults.clear();
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      await site.startWorker();
    }
  });
});
