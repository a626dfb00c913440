import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createGrafanaSimulator, type GrafanaState } from '../../apps/lab/simulators/grafana/index.js';
import type { Faults } from '../../apps/lab/simulators/faults.js';
import { createGrafanaAdapter, type DashboardsAdapter, type DashboardsSpec } from '../../backends/grafana/grafana.js';
import { BackendError } from '../../core/backend-outcome.js';
import { newDashboardPassword } from '../../backends/grafana/password.js';
import { defaultDatasourceUids } from '../support/grafana.js';

// The dashboards adapter against the Grafana simulator: one org per tenant, a login that is an
// Editor there and nowhere else, three log data sources the tenant cannot change.

let srv: RunningServer;
let state: GrafanaState;
let faults: Faults;
let dash: DashboardsAdapter;

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const secret = () => randomBytes(18).toString('base64url');
const spec = (tenant: string, accountId: number): DashboardsSpec & { password: string } => ({
  tenant,
  username: `${tenant}-dash`,
  password: secret(),
  logEndpoint: 'https://logs.site.example',
  readToken: secret(),
  selectHeader: 'X-Log-Project',
  accountId,
});

const uids = ['svc-logs-workloads', 'svc-logs-platform', 'svc-logs-devices'];
const results = (outcomes: { object: string; result: string }[]) => Object.fromEntries(outcomes.map((o) => [o.object, o.result]));

async function asAdmin(method: string, path: string, body?: unknown, org?: number) {
  const headers: Record<string, string> = { authorization: basic('admin', 'admin-pw'), 'content-type': 'application/json' };
  if (org !== undefined) headers['X-Grafana-Org-Id'] = String(org);
  return fetch(srv.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

function userId(login: string): number {
  const u = state.userByLoginOrEmail(login);
  if (!u) throw new Error(`no user ${login}`);
  return u.id;
}

beforeAll(async () => {
  const sim = createGrafanaSimulator({ adminUser: 'admin', adminPassword: 'admin-pw' });
  state = sim.state;
  faults = sim.faults;
  srv = await serveApp(sim.app);
  dash = createGrafanaAdapter({ url: srv.url, adminUser: 'admin', adminPassword: 'admin-pw', publicUrl: 'https://grafana.site.example' });
});

afterAll(async () => {
  await srv.close();
});

describe('ensure a tenant', () => {
  const acme = spec('acme', 1001);
  let orgId = 0;

  it('creates the org, the login, its membership and the three data sources', async () => {
    const r = await dash.ensure(acme);
    orgId = r.orgId;
    expect(results(r.outcomes)).toEqual({
      'dashboard org acme': 'created',
      'dashboard login acme-dash': 'created',
      'dashboard membership acme-dash': 'created',
      'dashboard data source svc-logs-workloads': 'created',
      'dashboard data source svc-logs-platform': 'created',
      'dashboard data source svc-logs-devices': 'created',
    });
    expect(state.orgs.get(orgId)?.name).toBe('acme');
    expect(dash.urlFor(orgId)).toBe(`https://grafana.site.example/?orgId=${orgId}`);
  });

  it('the login is an Editor of the tenant org and a member of no other (not of org 1)', () => {
    expect(state.orgsOf(userId('acme-dash'))).toEqual([{ orgId, name: 'acme', role: 'Editor' }]);
  });

  it('the login signs in with the given password', async () => {
    const res = await fetch(`${srv.url}/api/user`, { headers: { authorization: basic('acme-dash', acme.password) } });
    expect(res.status).toBe(200);
  });

  it('the data sources carry the read token and the project header; devices is the default', () => {
    const got = state.datasourcesOf(orgId);
    expect(got.map((d) => d.uid).sort()).toEqual([...uids].sort());
    for (const [uid, project] of [
      ['svc-logs-workloads', '1001-0'],
      ['svc-logs-platform', '1001-1'],
      ['svc-logs-devices', '1001-2'],
    ] as const) {
      const d = state.datasourceByUid(orgId, uid);
      expect(d).toMatchObject({
        type: 'victoriametrics-logs-datasource',
        access: 'proxy',
        url: 'https://logs.site.example',
        isDefault: uid === 'svc-logs-devices',
      });
      expect(d?.jsonData).toMatchObject({ httpHeaderName1: 'Authorization', httpHeaderName2: 'X-Log-Project' });
      expect(d?.secureJsonData).toEqual({ httpHeaderValue1: `Bearer ${acme.readToken}`, httpHeaderValue2: project });
    }
  });

  it('a second ensure finds everything in place and changes nothing', async () => {
    const versions = state.datasourcesOf(orgId).map((d) => d.version);
    const r = await dash.ensure(acme);
    expect(r.orgId).toBe(orgId);
    expect(new Set(r.outcomes.map((o) => o.result))).toEqual(new Set(['in-place']));
    expect(state.datasourcesOf(orgId).map((d) => d.version)).toEqual(versions);
    expect(await dash.observe(acme)).toEqual({
      org: { id: orgId, name: 'acme' },
      login: { id: userId('acme-dash'), orgs: [{ orgId, role: 'Editor' }] },
      dataSources: Object.fromEntries(uids.map((u) => [u, 'matches'])),
    });
  });

  it('outcomes carry no secret', async () => {
    const text = JSON.stringify(await dash.ensure(acme));
    expect(text).not.toContain(acme.password);
    expect(text).not.toContain(acme.readToken);
  });

  it('the tenant login cannot alter its read-only data sources (basic auth as the Editor)', async () => {
    const auth = basic('acme-dash', acme.password);
    const headers = { authorization: auth, 'content-type': 'application/json', 'X-Grafana-Org-Id': String(orgId) };
    const put = await fetch(`${srv.url}/api/datasources/uid/svc-logs-devices`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ name: 'Logs: devices', type: 'victoriametrics-logs-datasource', access: 'proxy', url: 'http://evil.example' }),
    });
    expect(put.status).toBe(403);
    expect(((await put.json()) as { title: string }).title).toBe('Access denied');
    const del = await fetch(`${srv.url}/api/datasources/uid/svc-logs-workloads`, { method: 'DELETE', headers });
    expect(del.status).toBe(403);
    const add = await fetch(`${srv.url}/api/datasources`, { method: 'POST', headers, body: JSON.stringify({ name: 'mine', type: 'loki', access: 'proxy' }) });
    expect(add.status).toBe(403);
    expect(state.datasourceByUid(orgId, 'svc-logs-devices')?.url).toBe('https://logs.site.example');
    expect(state.datasourcesOf(orgId)).toHaveLength(3);
  });

  describe('drift is corrected', () => {
    it('a deleted data source is recreated', async () => {
      await asAdmin('DELETE', '/api/datasources/uid/svc-logs-platform', undefined, orgId);
      const r = results((await dash.ensure(acme)).outcomes);
      expect(r['dashboard data source svc-logs-platform']).toBe('created');
      expect(r['dashboard data source svc-logs-workloads']).toBe('in-place');
    });

    it('an edited data source (url, default moved) is corrected', async () => {
      await asAdmin(
        'PUT',
        '/api/datasources/uid/svc-logs-workloads',
        { name: 'Logs: workloads', type: 'victoriametrics-logs-datasource', access: 'proxy', url: 'http://evil.example', isDefault: true },
        orgId,
      );
      expect(state.datasourceByUid(orgId, 'svc-logs-devices')?.isDefault).toBe(false);
      const r = results((await dash.ensure(acme)).outcomes);
      expect(r['dashboard data source svc-logs-workloads']).toBe('corrected');
      expect(r['dashboard data source svc-logs-devices']).toBe('corrected');
      expect(defaultDatasourceUids(state, orgId)).toEqual(['svc-logs-devices']);
      expect(state.datasourceByUid(orgId, 'svc-logs-workloads')?.url).toBe('https://logs.site.example');
    });

    it('a rotated read token is written to all three data sources', async () => {
      const rotated = { ...acme, readToken: secret() };
      const r = results((await dash.ensure(rotated)).outcomes);
      for (const uid of uids) expect(r[`dashboard data source ${uid}`]).toBe('corrected');
      expect(state.datasourceByUid(orgId, 'svc-logs-devices')?.secureJsonData.httpHeaderValue1).toBe(`Bearer ${rotated.readToken}`);
      acme.readToken = rotated.readToken;
    });

    it('a role raised to Admin is lowered back to Editor', async () => {
      await asAdmin('PATCH', `/api/orgs/${orgId}/users/${userId('acme-dash')}`, { role: 'Admin' });
      expect(results((await dash.ensure(acme)).outcomes)['dashboard membership acme-dash']).toBe('corrected');
      expect(state.roleOf(orgId, userId('acme-dash'))).toBe('Editor');
    });

    it('membership of another org (org 1) is removed', async () => {
      await asAdmin('POST', '/api/orgs/1/users', { loginOrEmail: 'acme-dash', role: 'Viewer' });
      expect(results((await dash.ensure(acme)).outcomes)['dashboard membership acme-dash']).toBe('corrected');
      expect(state.orgsOf(userId('acme-dash'))).toEqual([{ orgId, name: 'acme', role: 'Editor' }]);
    });

    it('a login removed from its own org is put back', async () => {
      await asAdmin('DELETE', `/api/orgs/${orgId}/users/${userId('acme-dash')}`);
      expect(results((await dash.ensure(acme)).outcomes)['dashboard membership acme-dash']).toBe('corrected');
      expect(state.roleOf(orgId, userId('acme-dash'))).toBe('Editor');
    });

    it('ensure and observe never sign in as the tenant (Grafana counts that toward its lockout)', async () => {
      const attempts = () => ({ ...(state.loginAttempts.get('acme-dash') ?? { ok: 0, failed: 0 }), failedAt: undefined });
      const before = attempts();
      await dash.ensure(acme);
      await dash.observe(acme);
      await dash.ensure(acme);
      expect(attempts()).toEqual(before);
    });

    it('a new password from the service (a restored tenant) is set; the same one is not set again', async () => {
      const restored = { ...acme, password: secret() };
      expect(results((await dash.ensure(restored)).outcomes)['dashboard login acme-dash']).toBe('corrected');
      expect((await fetch(`${srv.url}/api/user`, { headers: { authorization: basic('acme-dash', restored.password) } })).status).toBe(200);
      expect(results((await dash.ensure(restored)).outcomes)['dashboard login acme-dash']).toBe('in-place');
      expect(results((await dash.ensure(acme)).outcomes)['dashboard login acme-dash']).toBe('corrected');
      // The org keeps a digest of login and password, never the password.
      expect(JSON.stringify(state.orgs.get(orgId))).not.toContain(acme.password);
    });

    it('a login made server admin loses it', async () => {
      await asAdmin('PUT', `/api/admin/users/${userId('acme-dash')}/permissions`, { isGrafanaAdmin: true });
      expect(results((await dash.ensure(acme)).outcomes)['dashboard login acme-dash']).toBe('corrected');
      expect(state.users.get(userId('acme-dash'))?.isGrafanaAdmin).toBe(false);
    });

    it('the service admin removed from the tenant org is seated again, so data sources stay manageable', async () => {
      await asAdmin('POST', '/api/admin/users', { login: 'helper', password: 'helper-pw', OrgId: orgId });
      await asAdmin('PATCH', `/api/orgs/${orgId}/users/${userId('helper')}`, { role: 'Admin' });
      // Another admin first (an org keeps at least one), then that admin goes away with its account.
      expect((await asAdmin('DELETE', `/api/orgs/${orgId}/users/1`)).status).toBe(200);
      await asAdmin('DELETE', `/api/admin/users/${userId('helper')}`);
      expect(state.roleOf(orgId, 1)).toBeUndefined();
      const r = await dash.ensure(acme);
      expect(new Set(r.outcomes.map((o) => o.result))).toEqual(new Set(['in-place']));
      expect(state.roleOf(orgId, 1)).toBe('Admin');
    });
  });
});

describe('tenants are separated', () => {
  it('each login sees only its own org; another org refuses it', async () => {
    const a = spec('alpha', 1011);
    const b = spec('bravo', 1012);
    const ra = await dash.ensure(a);
    const rb = await dash.ensure(b);
    expect(ra.orgId).not.toBe(rb.orgId);
    const res = await fetch(`${srv.url}/api/datasources/uid/svc-logs-devices`, {
      headers: { authorization: basic(a.username, a.password), 'X-Grafana-Org-Id': String(rb.orgId) },
    });
    expect(res.status).toBe(403);
    expect(state.orgsOf(userId(a.username)).map((o) => o.orgId)).toEqual([ra.orgId]);
  });
});

describe('where Grafana puts new users', () => {
  it('with auto_assign_org off a user created into the org would be its Admin: ensure makes it an Editor', async () => {
    const sim = createGrafanaSimulator({ adminUser: 'admin', adminPassword: 'pw', users: { autoAssignOrg: false } });
    const s = await serveApp(sim.app);
    try {
      const adapter = createGrafanaAdapter({ url: s.url, adminUser: 'admin', adminPassword: 'pw', publicUrl: s.url });
      const t = spec('solo', 1020);
      const r = await adapter.ensure(t);
      expect(results(r.outcomes)['dashboard membership solo-dash']).toBe('created');
      const id = sim.state.userByLoginOrEmail('solo-dash')?.id ?? -1;
      expect(sim.state.orgsOf(id)).toEqual([{ orgId: r.orgId, name: 'solo', role: 'Editor' }]);
    } finally {
      await s.close();
    }
  });
});

describe('remove', () => {
  it('deletes the login, empties the org and renames it; a new ensure gets a fresh org', async () => {
    const gone = spec('gone', 1030);
    const { orgId } = await dash.ensure(gone);
    await dash.remove(gone);
    expect(state.userByLoginOrEmail('gone-dash')).toBeUndefined();
    expect(state.orgs.get(orgId)?.name).toBe(`deleted-gone-${orgId}`);
    expect(state.datasourcesOf(orgId)).toEqual([]);
    expect([...(state.members.get(orgId)?.keys() ?? [])]).toEqual([1]);
    await dash.remove(gone);
    expect(state.orgs.get(orgId)?.name).toBe(`deleted-gone-${orgId}`);
    const again = await dash.ensure(gone);
    expect(again.orgId).not.toBe(orgId);
    expect(results(again.outcomes)['dashboard org gone']).toBe('created');
  });
});

describe('the calls of one ensure', () => {
  it('asks for the membership and the three data sources at once: with the first data source held, the rest still arrive', async () => {
    const t = spec('together', 1050);
    const posts = () => faults.seen('/api/datasources', 'POST');
    const before = posts();
    const held = faults.hold({ match: '/api/datasources', method: 'POST' });
    const ensuring = dash.ensure(t);
    await held.reached;
    // One after another, nothing would follow the held call until it is released.
    const deadline = Date.now() + 5_000;
    while (posts() < before + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const whileHeld = posts() - before;
    const login = userId('together-dash');
    const membershipWhileHeld = faults.seen(`/api/users/${login}/orgs`, 'GET');
    held.release();
    const r = results((await ensuring).outcomes);
    expect(whileHeld, 'data sources created while the first was held').toBe(2);
    expect(membershipWhileHeld, "the membership's read while the first data source was held").toBe(1);
    expect(Object.values(r)).toEqual(['created', 'created', 'created', 'created', 'created', 'created']);
    expect(posts() - before).toBe(3);
  });
});

describe('backend failures', () => {
  it('a failing data-source call makes ensure throw a retryable BackendError; repeating resumes', async () => {
    const t = spec('faulty', 1040);
    await fetch(`${srv.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ fail_next: 1, status: 502, match: '/api/datasources', method: 'POST' }) });
    const err = await dash.ensure(t).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).retryable).toBe(true);
    expect((err as BackendError).detail).not.toContain(t.password);
    const r = results((await dash.ensure(t)).outcomes);
    expect(r['dashboard org faulty']).toBe('in-place');
    expect(r['dashboard login faulty-dash']).toBe('in-place');
    expect(r['dashboard data source svc-logs-workloads']).toBe('created');
  });

  it('a refusal (4xx) is not retryable', async () => {
    await fetch(`${srv.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ fail_next: 1, status: 403, match: '/api/orgs/name/' }) });
    const err = await dash.ensure(spec('refused', 1041)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).retryable).toBe(false);
  });

  it('wrong admin credentials are a non-retryable failure', async () => {
    const wrong = createGrafanaAdapter({ url: srv.url, adminUser: 'admin', adminPassword: 'nope', publicUrl: srv.url });
    const err = await wrong.ensure(spec('nocreds', 1042)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).status).toBe(401);
  });
});

describe("Grafana's strong password policy ([auth.basic] password_policy = true)", () => {
  let strict: RunningServer;
  let strictDash: DashboardsAdapter;
  beforeAll(async () => {
    const sim = createGrafanaSimulator({ adminUser: 'admin', adminPassword: 'admin-pw', passwordPolicy: true });
    strict = await serveApp(sim.app);
    strictDash = createGrafanaAdapter({ url: strict.url, adminUser: 'admin', adminPassword: 'admin-pw', publicUrl: 'https://grafana.site.example' });
  });
  afterAll(async () => strict?.close());

  it('accepts the passwords the service generates', async () => {
    const r = await strictDash.ensure({ ...spec('strict', 1900), password: newDashboardPassword() });
    expect(results(r.outcomes)['dashboard login strict-dash']).toBe('created');
  });

  it('refuses one without a symbol, as Grafana does (400, not retried)', async () => {
    const err = (await strictDash.ensure({ ...spec('weak', 1901), password: 'Abcdefghijkl12345678' }).catch((e: unknown) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    expect(err.status).toBe(400);
    expect(err.detail).toMatch(/doesn't comply with the password policy/);
  });
});
