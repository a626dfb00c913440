import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../backends/minio/sigv4.js';
import { ensureSweepSchedule } from '../../temporal/schedules.js';
import { type SweepResult } from '../../contracts/tenant.js';
import { ALL_ONE, heldStateSecret, heldTsigSecret, siteTotals, tenantObjects } from '../support/backend-objects.js';
import { fresh } from '../support/fresh-http.js';
import { nsupdate } from '../support/pdns.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { runIds } from '../../contracts/ids.js';
import { expectStatus } from '../support/answer.js';

/**
 * The registry lost with ten tenants in it: each tenant restores itself with its own token and
 * the secrets it kept, onto the objects the backends still hold (nothing duplicated, no secret
 * changed), and a sweep afterwards repairs what was altered behind the service's back.
 */
let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.stop();
});

const NAMES = Array.from({ length: 10 }, (_, i) => `rl${i}`);
const kept = new Map<string, any>();

const pdns = (path: string, init: RequestInit = {}) =>
  fetch(`${site.backends.pdns.apiUrl}/servers/localhost${path}`, { ...init, headers: { 'X-API-Key': site.backends.pdns.apiKey } });

/** A write to the tenant's DNS zone signed with the secret the tenant holds. */
async function tsigWorks(t: any, host: string): Promise<boolean> {
  const key = `hmac-sha256:${t.dns.tsig_key_name}:${t.dns.tsig_secret}`;
  const r = await nsupdate(site.backends.pdns.dnsPort, t.dns.zone, key, [`update add ${host}.${t.dns.zone}. 60 A 10.9.9.9`]);
  return r.ok;
}

/** A signed S3 read by tenant `t` of another tenant's probe object (the prefix policy forbids it). */
async function readsOther(t: any, other: any): Promise<number> {
  const url = new URL(`/${other.state.bucket}/${other.state.key_prefix}probe`, site.backends.minio.server.url);
  const creds = { accessKey: t.state.access_key, secretKey: t.state.secret_key };
  return (await fetch(url, { headers: signRequest({ method: 'GET', url }, creds, { region: site.backends.minio.state.region }) })).status;
}

/** A signed S3 write and read under the tenant's prefix with the state secret the tenant holds. */
async function stateWorks(t: any): Promise<boolean> {
  const creds = { accessKey: t.state.access_key, secretKey: t.state.secret_key };
  const url = new URL(`/${t.state.bucket}/${t.state.key_prefix}probe`, site.backends.minio.server.url);
  const body = `probe of ${t.name}`;
  const put = await fetch(url, {
    method: 'PUT',
    headers: signRequest({ method: 'PUT', url, body }, creds, { region: site.backends.minio.state.region }),
    body,
  });
  const get = await fetch(url, { headers: signRequest({ method: 'GET', url }, creds, { region: site.backends.minio.state.region }) });
  return put.status === 200 && get.status === 200 && (await get.text()) === body;
}

/** A log line shipped through the real gateway with the ingest token the tenant held. */
async function shipsLogs(t: any): Promise<boolean> {
  const gateway = site.backends.logStore!;
  const before = gateway.received.length;
  const r = await fresh(`${gateway.endpoint}/insert/jsonline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.log.ingest_token}` },
    body: `{"_msg":"after restore ${t.name}"}\n`,
    resend: true,
  });
  return r.status < 300 && gateway.received.length > before;
}

/** The dashboard login with the password the tenant held (Grafana's own check, basic auth). */
async function dashboardSignsIn(t: any): Promise<boolean> {
  const auth = `Basic ${Buffer.from(`${t.dashboard.username}:${t.dashboard.password}`).toString('base64')}`;
  return (await fetch(`${site.backends.grafana!.server.url}/api/user`, { headers: { authorization: auth } })).status === 200;
}

async function runSweep(): Promise<SweepResult> {
  await ensureSweepSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
  const before = Date.now();
  await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).trigger();
  let found: { workflowId: string; runId: string } | undefined;
  await waitFor(async () => {
    for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) {
      if (w.startTime.getTime() >= before - 1000) found = { workflowId: w.workflowId, runId: w.runId };
    }
    return found !== undefined;
  }, 30_000);
  return (await site.client.workflow.getHandle(found!.workflowId, found!.runId).result()) as SweepResult;
}

describe('the registry lost under ten tenants', () => {
  beforeAll(async () => {
    const answers = await Promise.all(NAMES.map((name) => site.call('POST', '/v1/tenants', { body: { name } })));
    for (const a of answers) {
      expect(a.status, a.text).toBe(201);
      kept.set(a.body.name, a.body);
    }
    // The loss: every registry table emptied under the running API and worker.
    const tables = await site.registry.sql<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public'`;
    expect(tables.map((t) => t.tablename)).toContain('tenants');
    await site.registry.sql.unsafe(`truncate ${tables.map((t) => `"${t.tablename}"`).join(', ')} cascade`);
  }, 120_000);

  it('the API still serves; the tenants are unknown (404) and their own tokens still identify them', async () => {
    expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
    expect((await site.call('GET', '/v1/tenants')).body).toEqual({ tenants: [] });
    for (const [name, t] of kept) {
      const r = await site.call('GET', `/v1/tenants/${name}`, { token: t.api_token });
      expect(r.status, r.text).toBe(404);
      expect(r.body).toEqual({ error: 'tenant not found' });
    }
  });

  it('each tenant restores itself (201 restored, same index), with no duplicate object and no secret changed', async () => {
    const started = Date.now();
    const restores = await Promise.all(
      [...kept.values()].map((t) =>
        site.call('POST', '/v1/tenants', {
          token: t.api_token,
          body: { name: t.name, index: t.index, tsig_secret: t.dns.tsig_secret, state_secret: t.state.secret_key, api_token: t.api_token },
        }),
      ),
    );
    const ms = Date.now() - started;
    const changed = { tsig: 0, state: 0, apiToken: 0, logTokens: 0, dashboardPassword: 0 };
    for (const r of restores) {
      expect(r.status, r.text).toBe(201);
      const t = kept.get(r.body.name);
      expect(r.body).toMatchObject({ outcome: 'restored', index: t.index, status: 'ready' });
      if (r.body.dns.tsig_secret !== t.dns.tsig_secret) changed.tsig++;
      if (r.body.state.secret_key !== t.state.secret_key) changed.state++;
      if (r.body.api_token !== t.api_token) changed.apiToken++;
      if (r.body.log.ingest_token !== t.log.ingest_token || r.body.log.read_token !== t.log.read_token) changed.logTokens++;
      // The login is adopted as it is: the tenant keeps the password it holds, none is answered.
      if (r.body.dashboard.password !== undefined) changed.dashboardPassword++;
      expect(r.body.steps.every((s: any) => s.ok)).toBe(true);
    }
    console.log(`registry-loss: 10 restores in ${ms} ms; secrets changed ${JSON.stringify(changed)}`);
    expect(changed).toEqual({ tsig: 0, state: 0, apiToken: 0, logTokens: 0, dashboardPassword: 0 });

    for (const t of kept.values()) {
      expect(await tenantObjects(site, t.name, t.index), t.name).toEqual(ALL_ONE);
      // The backends hold the secrets the tenant kept, and they work.
      expect(await heldTsigSecret(site, t.name)).toBe(t.dns.tsig_secret);
      expect(heldStateSecret(site, t.name)).toBe(t.state.secret_key);
      expect(await tsigWorks(t, 'after-restore'), t.name).toBe(true);
      expect(await stateWorks(t), t.name).toBe(true);
      // Log shipping and the dashboard login keep working with what the tenant held: nothing redeployed.
      expect(await shipsLogs(t), t.name).toBe(true);
      expect(await dashboardSignsIn(t), t.name).toBe(true);
      // The kept token is the tenant's again.
      expectStatus(await site.call('GET', `/v1/tenants/${t.name}`, { token: t.api_token }), 200, site.logs);
    }
    expect(await siteTotals(site)).toEqual({
      reverseZones: 10,
      tsigKeys: 10,
      fabricZones: 10,
      vnets: 10,
      subnets: 10,
      stateUsers: 10,
      orgs: 10,
      dashboardUsers: 10,
      forwards: 20,
      logRoutes: 20,
      reservations: 0,
      brokerAccounts: 0,
    });
  }, 60_000);

  it('a sweep repairs objects altered behind the service: a zone deleted, a policy widened, a data source deleted', async () => {
    const [a, b] = [kept.get('rl0'), kept.get('rl1')];
    const minio = site.backends.minio.state;
    const grafana = site.backends.grafana!.state;
    const policyBefore = JSON.stringify(minio.policies.get('tenant-rl1')!.document);
    const orgOf = (name: string) => grafana.orgByName(name)!.id;
    const sourcesOf = (name: string) =>
      grafana
        .datasourcesOf(orgOf(name))
        .map((d) => d.uid)
        .sort();
    const sourcesBefore = sourcesOf('rl2');
    expect(sourcesBefore).toContain('svc-logs-devices');

    expect((await pdns(`/zones/${a.dns.zone}.`, { method: 'DELETE' })).status).toBe(204);
    minio.policies.get('tenant-rl1')!.document = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['s3:*'], Resource: ['arn:aws:s3:::*'] }] };
    const ds = grafana.datasourcesOf(orgOf('rl2')).find((d) => d.uid === 'svc-logs-devices')!;
    grafana.datasources.delete(ds.id);
    // The drift is real: rl0's zone refuses its updates, rl1 reads rl0's prefix.
    expect(await tsigWorks(a, 'during-drift')).toBe(false);
    expect(await readsOther(b, a)).toBe(200);

    const started = Date.now();
    const result = await runSweep();
    console.log(`registry-loss: sweep in ${Date.now() - started} ms; corrected ${JSON.stringify(result.corrected)}`);
    expect(result.tenants).toBe(10);
    expect(result.failed).toEqual([]);
    // Exactly the three altered objects, and nothing else of any tenant.
    expect(result.corrected).toEqual({
      rl0: [`dns: zone ${a.dns.zone}. created`],
      rl1: ['state: policy tenant-rl1 corrected'],
      rl2: ['dashboards: dashboard data source svc-logs-devices created'],
    });

    expect((await pdns(`/zones/${a.dns.zone}.`)).status).toBe(200);
    expect(await tsigWorks(a, 'after-sweep')).toBe(true);
    expect(JSON.stringify(minio.policies.get('tenant-rl1')!.document)).toBe(policyBefore);
    expect(await stateWorks(b)).toBe(true);
    expect(await readsOther(b, a)).toBe(403);
    expect(sourcesOf('rl2')).toEqual(sourcesBefore);
    expect(grafana.datasourcesOf(orgOf('rl2')).find((d) => d.uid === 'svc-logs-devices')?.isDefault).toBe(true);
    for (const t of kept.values()) expect(await tenantObjects(site, t.name, t.index), t.name).toEqual(ALL_ONE);
  }, 60_000);
});
