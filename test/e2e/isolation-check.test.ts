import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIds } from '../../contracts/ids.js';
import type { IsolationCheckResult } from '../../contracts/isolation-check.js';
import { sealKeys } from '../../apps/config/keys.js';
import { CANARY_NAMES } from '../../core/canaries.js';
import { tenantCensus } from '../../db/queries/census.js';
import { getCanary } from '../../db/queries/isolation.js';
import { getCertificate } from '../../db/queries/certificates.js';
import { getTenantRow, openSecrets } from '../../db/queries/tenants.js';
import { deleteWifiKey, getWifiKey } from '../../db/queries/wifi-keys.js';
import { open } from '../../db/seal.js';
import { dig, nsupdate } from '../support/pdns.js';
import { ensureIsolationCheckSchedule } from '../../temporal/schedules.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * Issue 49: the isolation check on the lab. The canaries are made by the check's first run through
 * the normal create run, every probe of every backend the lab runs holds, the result is kept for
 * the latest read, and the canaries stay out of the tenant list and can't be taken by a caller.
 */
let site: TestSite;
let first: IsolationCheckResult;
let firstMs: number;
beforeAll(async () => {
  site = await startTestSite();
  const started = Date.now();
  const res = await site.call('POST', '/v1/isolation-checks');
  firstMs = Date.now() - started;
  expect(res.status, res.text).toBe(200);
  first = res.body as IsolationCheckResult;
}, 600_000);
afterAll(async () => {
  await site?.stop();
});

describe('the isolation check on the lab', () => {
  it("passes: each canary reaches its own objects and none of the other canary's, on every backend", () => {
    expect(first.crossings).toEqual([]);
    expect(first.passed).toBe(true);
    const byBackend = new Map<string, string[]>();
    for (const p of first.probes) byBackend.set(p.backend, [...(byBackend.get(p.backend) ?? []), `${p.credential_of}->${p.object_of}:${p.result}`]);
    for (const backend of ['dns', 'state', 'broker', 'log-store', 'dashboards', 'wifi', 'certificates']) {
      expect(byBackend.get(backend), backend).toEqual([
        'canarya->canarya:works',
        'canaryb->canaryb:works',
        'canarya->canaryb:isolated',
        'canaryb->canarya:isolated',
      ]);
    }
    // A probe on the other canary's objects says what was refused, never a secret.
    const state = first.probes.find((p) => p.backend === 'state' && p.result === 'isolated')!;
    expect(state.detail).toMatch(/write of canary.\/isolation-probe: refused; read of .*: refused; list of canary.\/: refused/);
    const detail = (backend: string, from: string, to: string) =>
      first.probes.find((p) => p.backend === backend && p.credential_of === from && p.object_of === to)!.detail;
    // DNS: each key changes its own published name, never the other's.
    expect(detail('dns', 'canarya', 'canarya')).toBe('update of published name probe.canarya.lab.example (NOERROR): reached');
    expect(detail('dns', 'canarya', 'canaryb')).toMatch(/^update of published name probe\.canaryb\.lab\.example \((REFUSED|NOTAUTH)\): refused$/);
    // Wi-Fi: the lab's two classes share one network, so both keys stand where the other's does by design.
    expect(detail('wifi', 'canarya', 'canarya')).toBe('key on its network tenant-devices (VLAN 40) through lab-devices: reached');
    expect(detail('wifi', 'canarya', 'canaryb')).toBe(
      "key on a WLAN or network of canary canaryb's apart from its own: none, both keys are for network tenant-devices through lab-devices: refused",
    );
    // Certificates: chained to the site's CA, valid for its own published name, for none of the other's.
    expect(detail('certificates', 'canaryb', 'canaryb')).toBe(
      "signed by the site's tenant CA and current: reached; valid for probe.canaryb.lab.example: reached",
    );
    expect(detail('certificates', 'canaryb', 'canarya')).toBe(
      'valid for probe.canarya.lab.example: refused; valid for isolation-probe.canarya.lab.example: refused',
    );
    expect(first.skipped).toEqual(['api']);
    expect(first.probes).toHaveLength(28);
    console.log(`first check (canaries created): ${firstMs} ms, ${first.probes.length} probes`);
  });

  it('made the canaries as tenants through the create run, left out of the list unless asked', async () => {
    const runs = await site.client.workflow.list({ query: `WorkflowId = "${runIds.tenantCreate('canarya')}"` });
    const found: string[] = [];
    for await (const r of runs) found.push(r.status.name);
    expect(found).toEqual(['COMPLETED']);
    const plain = await site.call('GET', '/v1/tenants');
    expect(plain.body.tenants.map((t: { name: string }) => t.name)).toEqual([]);
    const asked = await site.call('GET', '/v1/tenants?canaries=true');
    expect(asked.body.tenants.map((t: { name: string }) => t.name).sort()).toEqual(['canarya', 'canaryb']);
    expect(asked.body.tenants.every((t: { status: string }) => t.status === 'ready')).toBe(true);
  });

  it("gave each canary a published name, a Wi-Fi key and a certificate through the normal routes' runs, once", async () => {
    for (const name of CANARY_NAMES) {
      const tenant = (await site.call('GET', `/v1/tenants/${name}`)).body;
      const records = (await site.call('GET', `/v1/tenants/${name}/records`)).body.records;
      expect(records.map((r: { name: string; address: string }) => `${r.name} ${r.address}`)).toEqual([
        `probe ${tenant.network.subnet.replace(/\.0\/24$/, '.9')}`,
      ]);
      expect((await dig(site.backends.pdns.dnsPort, `probe.${name}.lab.example`)).answers).toEqual([tenant.network.subnet.replace(/\.0\/24$/, '.9')]);
      const keys = (await site.call('GET', `/v1/tenants/${name}/wifi-keys`)).body.wifi_keys;
      expect(keys.map((k: { name: string; trust_class: string; ssid: string }) => `${k.name} ${k.trust_class} ${k.ssid}`)).toEqual([
        'probe camera lab-devices',
      ]);
      const certificate = await site.call('GET', `/v1/tenants/${name}/certificates/probe`);
      expect(certificate.status).toBe(200);
      expect(certificate.body.dns_names).toEqual([`probe.${name}.lab.example`]);
    }
    // Through their runs, as a tenant's calls make them, and not again on a later check.
    await site.call('POST', '/v1/isolation-checks');
    for (const id of [runIds.recordPut('canarya', 'probe'), runIds.wifiKeyIssue('canaryb', 'probe', false)]) {
      const found: string[] = [];
      for await (const r of site.client.workflow.list({ query: `WorkflowId = "${id}"` })) found.push(r.status.name);
      expect(found, id).toHaveLength(1);
    }
  });

  it("keeps every canary secret out of the logs and of the check's history", async () => {
    const keys = sealKeys(site.config.site!);
    const secrets: string[] = [];
    for (const name of CANARY_NAMES) {
      const row = (await getTenantRow(site.registry.db, name))!;
      const canary = (await getCanary(site.registry.db, name))!;
      secrets.push(...Object.values(openSecrets(keys, row)).filter((v): v is string => typeof v === 'string'));
      secrets.push(open(keys, canary.apiToken)!, open(keys, canary.brokerPassword)!);
      secrets.push(open(keys, (await getWifiKey(site.registry.db, name, 'probe'))!.psk)!);
    }
    expect(secrets.length).toBeGreaterThanOrEqual(16);
    const history = JSON.stringify(await site.client.workflow.getHandle(runIds.isolationCheck, first.run_id).fetchHistory());
    for (const secret of secrets) {
      expect(site.logs.some((l) => l.includes(secret))).toBe(false);
      expect(history.includes(secret)).toBe(false);
    }
  });

  it('is left out of the reconcile sweep and its counts, and of the tenant census', async () => {
    const swept = await site.client.workflow.execute('reconcileSweep', { workflowId: `sweep-${Date.now()}`, taskQueue: site.config.env.TEMPORAL_TASK_QUEUE });
    expect(swept).toMatchObject({ tenants: 0, reconciled: [], failed: [], skipped: [] });
    // Nor are they counted among the site's tenants (provisioning_tenants{status}).
    expect((await tenantCensus(site.registry.db)).byStatus).toEqual({});
  });

  it('refuses the canary names to any caller', async () => {
    const res = await site.call('POST', '/v1/tenants', { body: { name: 'canarya' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/reserved for the isolation check/);
  });

  it('runs again on the same canaries, each probe a step of the run, and the latest is the last run', async () => {
    const started = Date.now();
    const res = await site.call('POST', '/v1/isolation-checks');
    const againMs = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.passed).toBe(true);
    expect(res.body.run_id).not.toBe(first.run_id);
    const latest = await site.call('GET', '/v1/isolation-checks/latest');
    expect(latest.status).toBe(200);
    expect(latest.body.run_id).toBe(res.body.run_id);
    // Every probe is an activity of the check's run, visible in its history.
    const history = await site.client.workflow.getHandle(runIds.isolationCheck, res.body.run_id).fetchHistory();
    const probes = (history.events ?? [])
      .flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [])
      .filter((n) => n.endsWith('.isolation-probe'));
    expect(probes).toHaveLength(res.body.probes.length);
    // And no credential of a canary is in it (the probes read them from the registry).
    const text = JSON.stringify(history);
    const canary = await site.registry.db.$client.unsafe<{ api_token: string }[]>('select api_token from canaries');
    expect(canary).toHaveLength(2);
    expect(text).not.toMatch(/tsig_secret|secret_key|api_token/);
    console.log(`second check (canaries ready): ${againMs} ms`);
  });

  it("renews a canary's certificate as a tenant would, within sixty days of its end, and no other", async () => {
    const before = { a: (await getCertificate(site.registry.db, 'canarya', 'probe'))!, b: (await getCertificate(site.registry.db, 'canaryb', 'probe'))! };
    await site.registry.db.$client.unsafe(`update certificates set not_after = now() + interval '30 days' where tenant = 'canarya' and name = 'probe'`);
    const res = await site.call('POST', '/v1/isolation-checks');
    expect(res.body.passed).toBe(true);
    const a = (await getCertificate(site.registry.db, 'canarya', 'probe'))!;
    expect(a.serial).not.toBe(before.a.serial);
    expect(a.publicKeyFingerprint).not.toBe(before.a.publicKeyFingerprint);
    expect(a.notAfter.getTime() - Date.now()).toBeGreaterThan(360 * 24 * 3600 * 1000);
    expect((await getCertificate(site.registry.db, 'canaryb', 'probe'))!.serial).toBe(before.b.serial);
  });

  it("the probes leave nothing behind in the canaries' zones", async () => {
    // An update the canary's own key may make still works, and nothing of the probe is in the zone.
    const res = await site.call('GET', '/v1/isolation-checks/latest');
    expect(res.body.probes.filter((p: { backend: string; result: string }) => p.backend === 'dns' && p.result === 'works')).toHaveLength(2);
    const unsigned = await nsupdate(site.backends.pdns.dnsPort, 'canaryb.lab.example', undefined, ['update add x.canaryb.lab.example. 60 A 10.0.0.1']);
    expect(unsigned.ok).toBe(false);
    // The published names keep their A record and carry no TXT of a probe.
    for (const name of CANARY_NAMES) {
      expect((await dig(site.backends.pdns.dnsPort, `probe.${name}.lab.example`)).answers).toHaveLength(1);
      expect((await dig(site.backends.pdns.dnsPort, `probe.${name}.lab.example`, 'TXT')).answers).toEqual([]);
    }
  });

  it('tenantctl reads the latest (exit 0 when it passed) and lists the canaries when asked', async () => {
    const env = { PATH: process.env.PATH ?? '', TENANT_API_URL: site.url, TENANT_API_TOKEN: site.operatorToken };
    const latest = await promisify(execFile)(process.execPath, ['bin/tenantctl.mjs', 'isolation-check', 'latest', '--output', 'json'], { env });
    expect(JSON.parse(latest.stdout).passed).toBe(true);
    const list = await promisify(execFile)(process.execPath, ['bin/tenantctl.mjs', 'tenant', 'list', '--canaries', '--output', 'json'], { env });
    expect(JSON.parse(list.stdout).tenants.map((t: { name: string }) => t.name)).toEqual(['canarya', 'canaryb']);
  });

  it('is scheduled on the site interval, a tick skipped while a check runs', async () => {
    await ensureIsolationCheckSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
    // Ensuring again (every worker start) updates in place.
    await ensureIsolationCheckSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
    const schedule = site.client.schedule.getHandle(runIds.isolationCheckSchedule);
    const desc = await schedule.describe();
    const next = desc.info.nextActionTimes.map((d) => d.getTime());
    expect(next.slice(1).map((t, i) => t - next[i]!)).toEqual(next.slice(1).map(() => 3_600_000));
    expect(desc.policies.overlap).toBe('SKIP');
    expect(desc.action).toMatchObject({ type: 'startWorkflow', workflowType: 'isolationCheck', workflowId: runIds.isolationCheck });
    // A tick run now is a check like an operator's, and its result becomes the latest.
    const before = (await site.call('GET', '/v1/isolation-checks/latest')).body.run_id;
    await schedule.trigger();
    await waitFor(async () => (await site.call('GET', '/v1/isolation-checks/latest')).body.run_id !== before, 60_000);
    expect((await site.call('GET', '/v1/isolation-checks/latest')).body.passed).toBe(true);
    // SITE_ISOLATION_CHECK_INTERVAL=off: the site's Schedule is gone, and ensuring off again is no error.
    await ensureIsolationCheckSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: undefined });
    await expect(schedule.describe()).rejects.toThrow(/not found/i);
    await ensureIsolationCheckSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: undefined });
  });

  it('is operator only', async () => {
    expectStatus(await site.call('POST', '/v1/isolation-checks', { token: 'nope' }), 401, site.logs);
  });

  it('a canary object its run could not make leaves that backend broken and the others probed; the next check resumes its run', async () => {
    // canaryb's Wi-Fi key gone from the registry and the controller, as before its first check.
    const keys = sealKeys(site.config.site!);
    const psk = open(keys, (await getWifiKey(site.registry.db, 'canaryb', 'probe'))!.psk)!;
    const wlan = site.backends.unifi!.wlan('lab-devices')!;
    wlan.private_preshared_keys = wlan.private_preshared_keys.filter((e) => e.password !== psk);
    await deleteWifiKey(site.registry.db, 'canaryb', 'probe');
    // The controller refuses every write while the check makes it again.
    const faults = site.backends.unifi!.faults;
    faults.add({ failNext: 1000, method: 'PUT', match: 'wlanconf' });
    let res: IsolationCheckResult;
    try {
      res = (await site.call('POST', '/v1/isolation-checks')).body;
    } finally {
      faults.clear();
    }
    const results = (r: IsolationCheckResult, backend: string) => r.probes.filter((p) => p.backend === backend).map((p) => p.result);
    expect(results(res, 'wifi')).toEqual(['works', 'broken', 'isolated', 'isolated']);
    expect(res.probes.find((p) => p.backend === 'wifi' && p.result === 'broken')!.detail).toBe(
      "wifi: canary canaryb's Wi-Fi key was refused on its own objects (key on its network tenant-devices through lab-devices), so this backend's isolation is unknown",
    );
    expect(res.probes.filter((p) => p.backend !== 'wifi').every((p) => p.result === 'works' || p.result === 'isolated')).toBe(true);
    expect(res.passed).toBe(false);
    expect(res.crossings).toEqual([]);
    // The controller writes again: the next check resumes the key's parked run, and passes.
    const again = (await site.call('POST', '/v1/isolation-checks')).body as IsolationCheckResult;
    expect(results(again, 'wifi')).toEqual(['works', 'works', 'isolated', 'isolated']);
    expect(again.passed).toBe(true);
  });

  it("with SITE_API_URL, each canary's API token is tried on the other's routes too", async () => {
    // A worker process of the site told where tenants reach the API (the in-process one is not).
    await site.stopWorker();
    site.spawnWorker({ SITE_API_URL: site.url });
    const res = await site.call('POST', '/v1/isolation-checks');
    expect(res.status, res.text).toBe(200);
    const api = (res.body as IsolationCheckResult).probes.filter((p) => p.backend === 'api');
    expect(api.map((p) => `${p.credential_of}->${p.object_of}:${p.result}`)).toEqual([
      'canarya->canarya:works',
      'canaryb->canaryb:works',
      'canarya->canaryb:isolated',
      'canaryb->canarya:isolated',
    ]);
    expect(res.body.probes).toHaveLength(32);
    expect(api[2]!.detail).toMatch(
      /^GET \/v1\/tenants\/canaryb \(40[34]\): refused; GET \/v1\/tenants\/canaryb\/records \(40[34]\): refused; GET \/v1\/tenants\/canaryb\/wifi-keys\/probe \(40[34]\): refused; GET \/v1\/tenants\/canaryb\/certificates\/probe \(40[34]\): refused$/,
    );
    expect(api[0]!.detail).toMatch(
      /^GET \/v1\/tenants\/canarya \(200\): reached; .*wifi-keys\/probe \(200\): reached; .*certificates\/probe \(200\): reached$/,
    );
    expect(res.body.passed).toBe(true);
  });
});
