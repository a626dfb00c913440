import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createGrafanaSimulator, type GrafanaState } from '../../apps/lab/simulators/grafana/index.js';
import { defaultDatasourceUids } from '../support/grafana.js';

// Fidelity of the Grafana simulator to Grafana's HTTP API: paths, statuses, `{"message"}` bodies,
// org scoping by X-Grafana-Org-Id, where new users land, and who may touch data sources.

let srv: RunningServer;
let state: GrafanaState;

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const ADMIN = basic('admin', 'secret-admin');

async function call(method: string, path: string, opts: { body?: unknown; auth?: string; org?: number } = {}) {
  const headers: Record<string, string> = { authorization: opts.auth ?? ADMIN };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.org !== undefined) headers['X-Grafana-Org-Id'] = String(opts.org);
  const res = await fetch(srv.url + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & unknown[] };
}

beforeAll(async () => {
  const sim = createGrafanaSimulator({ adminUser: 'admin', adminPassword: 'secret-admin' });
  state = sim.state;
  srv = await serveApp(sim.app);
});

afterAll(async () => {
  await srv.close();
});

describe('authentication', () => {
  it('refuses a request without credentials', async () => {
    const r = await call('GET', '/api/orgs/1', { auth: '' });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Unauthorized');
  });

  it('refuses a wrong password', async () => {
    const r = await call('GET', '/api/user', { auth: basic('admin', 'nope') });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ message: 'Invalid username or password', messageId: 'password-auth.failed' });
  });

  it('GET /api/user returns the signed-in user', async () => {
    const r = await call('GET', '/api/user');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ login: 'admin', isGrafanaAdmin: true, orgId: 1 });
  });

  it('GET /api/user/orgs lists the signed-in user\'s own organizations with its role, and needs no permission (docs: http_api/user, "Organizations of the actual User")', async () => {
    const r = await call('GET', '/api/user/orgs');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Admin' }]);
    expect((await call('GET', '/api/user/orgs', { auth: basic('admin', 'nope') })).status).toBe(401);
  });
});

describe('organizations', () => {
  let orgId = 0;

  it('creates an org, returning its id, and makes the creator its Admin', async () => {
    const r = await call('POST', '/api/orgs', { body: { name: 'alpha' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ orgId: expect.any(Number), message: 'Organization created' });
    orgId = r.body.orgId as number;
    expect(state.roleOf(orgId, 1)).toBe('Admin');
  });

  it('refuses a duplicate name with 409', async () => {
    const r = await call('POST', '/api/orgs', { body: { name: 'alpha' } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ message: 'Organization name taken' });
  });

  it('finds an org by name and by id, with its address block; 404 "Organization not found" otherwise', async () => {
    expect((await call('GET', '/api/orgs/name/alpha')).body).toMatchObject({ id: orgId, name: 'alpha', address: { city: '' } });
    expect((await call('GET', `/api/orgs/${orgId}`)).body).toMatchObject({ id: orgId, name: 'alpha' });
    const missing = await call('GET', '/api/orgs/name/nobody');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Organization not found' });
    expect((await call('GET', '/api/orgs/9999')).status).toBe(404);
    expect((await call('GET', '/api/orgs/abc')).body).toEqual({ message: 'orgId is invalid' });
  });

  it('renames an org; a taken name is 400 on update (409 is only for create)', async () => {
    expect((await call('PUT', `/api/orgs/${orgId}`, { body: { name: 'alpha2' } })).body).toEqual({ message: 'Organization updated' });
    const taken = await call('PUT', `/api/orgs/${orgId}`, { body: { name: 'Main Org.' } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Organization name taken' });
    await call('PUT', `/api/orgs/${orgId}`, { body: { name: 'alpha' } });
  });

  it('answers 400 "bad request data" to a body that is not JSON', async () => {
    const res = await fetch(`${srv.url}/api/orgs`, { method: 'POST', headers: { authorization: ADMIN, 'content-type': 'application/json' }, body: '{' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'bad request data' });
  });
});

describe('users', () => {
  it('creates a user (id, uid, message); by default a new user lands in org 1 as Viewer', async () => {
    const r = await call('POST', '/api/admin/users', { body: { name: 'Una', login: 'una', password: 'pw-una' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: expect.any(Number), uid: expect.any(String), message: 'User created' });
    expect((await call('GET', `/api/users/${r.body.id as number}/orgs`)).body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Viewer' }]);
  });

  it('with OrgId the user lands only in that org, with the auto-assign role', async () => {
    const org = (await call('POST', '/api/orgs', { body: { name: 'beta' } })).body.orgId as number;
    const r = await call('POST', '/api/admin/users', { body: { login: 'ben', password: 'pw-ben', OrgId: org } });
    expect((await call('GET', `/api/users/${r.body.id as number}/orgs`)).body).toEqual([{ orgId: org, name: 'beta', role: 'Viewer' }]);
    expect((await call('GET', '/api/users/lookup?loginOrEmail=ben')).body).toMatchObject({ login: 'ben', orgId: org, isGrafanaAdmin: false });
  });

  it('refuses a duplicate login with 412 and its message', async () => {
    const r = await call('POST', '/api/admin/users', { body: { login: 'una', password: 'pw-una' } });
    expect(r.status).toBe(412);
    expect(r.body).toEqual({ message: "User with email '' or username 'una' already exists" });
  });

  it('refuses a short password and an unknown OrgId with 400', async () => {
    expect((await call('POST', '/api/admin/users', { body: { login: 'x1', password: 'abc' } })).body).toEqual({ message: 'Password is missing or too short' });
    const r = await call('POST', '/api/admin/users', { body: { login: 'x2', password: 'abcd', OrgId: 999 } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: 'organization not found' });
  });

  it('lookup of an unknown login is 404 "user not found"', async () => {
    const r = await call('GET', '/api/users/lookup?loginOrEmail=ghost');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'user not found' });
  });

  it('sets a password; the user can then sign in with it', async () => {
    const id = (await call('GET', '/api/users/lookup?loginOrEmail=una')).body.id as number;
    expect((await call('PUT', `/api/admin/users/${id}/password`, { body: { password: 'abc' } })).body).toEqual({ message: 'New password too short' });
    expect((await call('PUT', `/api/admin/users/${id}/password`, { body: { password: 'new-pw' } })).body).toEqual({ message: 'User password updated' });
    expect((await call('GET', '/api/user', { auth: basic('una', 'new-pw') })).status).toBe(200);
    expect((await call('GET', '/api/user', { auth: basic('una', 'pw-una') })).status).toBe(401);
  });

  it('a user who is not a server admin cannot use the admin APIs (403 access denied)', async () => {
    const r = await call('GET', '/api/users/lookup?loginOrEmail=admin', { auth: basic('una', 'new-pw') });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      title: 'Access denied',
      message: expect.stringContaining('Permissions needed: users:read'),
      accessErrorId: expect.stringMatching(/^ACE\d+$/),
    });
  });

  it('deletes a user: 200 "User deleted", then 404', async () => {
    const id = (await call('POST', '/api/admin/users', { body: { login: 'gone', password: 'pw-gone' } })).body.id as number;
    expect((await call('DELETE', `/api/admin/users/${id}`)).body).toEqual({ message: 'User deleted' });
    const again = await call('DELETE', `/api/admin/users/${id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'user not found' });
  });
});

describe('org membership', () => {
  let org = 0;
  let una = 0;
  beforeAll(async () => {
    org = (await call('POST', '/api/orgs', { body: { name: 'gamma' } })).body.orgId as number;
    una = (await call('GET', '/api/users/lookup?loginOrEmail=una')).body.id as number;
  });

  it('adds a user with a role; a second add is 409 with the user id', async () => {
    expect((await call('POST', `/api/orgs/${org}/users`, { body: { loginOrEmail: 'una', role: 'Editor' } })).body).toEqual({
      message: 'User added to organization',
      userId: una,
    });
    const again = await call('POST', `/api/orgs/${org}/users`, { body: { loginOrEmail: 'una', role: 'Editor' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'User is already member of this organization', userId: una });
  });

  it('refuses an invalid role (400) and an unknown user (404)', async () => {
    expect((await call('POST', `/api/orgs/${org}/users`, { body: { loginOrEmail: 'una', role: 'Owner' } })).body).toEqual({
      message: 'Invalid role specified',
    });
    const r = await call('POST', `/api/orgs/${org}/users`, { body: { loginOrEmail: 'ghost', role: 'Viewer' } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'User not found' });
  });

  it('changes a role and removes a member', async () => {
    expect((await call('PATCH', `/api/orgs/${org}/users/${una}`, { body: { role: 'Admin' } })).body).toEqual({ message: 'Organization user updated' });
    expect(state.roleOf(org, una)).toBe('Admin');
    expect((await call('DELETE', `/api/orgs/${org}/users/${una}`)).body).toEqual({ message: 'User removed from organization' });
    expect(state.roleOf(org, una)).toBeUndefined();
  });

  it('never leaves an org without an admin', async () => {
    const solo = (await call('POST', '/api/orgs', { body: { name: 'delta' } })).body.orgId as number;
    const demote = await call('PATCH', `/api/orgs/${solo}/users/1`, { body: { role: 'Viewer' } });
    expect(demote.status).toBe(400);
    expect(demote.body).toEqual({ message: 'Cannot change role so that there is no organization admin left' });
    const remove = await call('DELETE', `/api/orgs/${solo}/users/1`);
    expect(remove.status).toBe(400);
    expect(remove.body).toEqual({ message: 'Cannot remove last organization admin' });
  });

  it('lists the users of an org', async () => {
    const r = await call('GET', `/api/orgs/${org}/users`);
    expect(r.body).toEqual([expect.objectContaining({ orgId: org, userId: 1, login: 'admin', role: 'Admin' })]);
  });
});

describe('data sources', () => {
  let org = 0;
  const ds = (over: Record<string, unknown> = {}) => ({
    uid: 'logs-a',
    name: 'Logs A',
    type: 'victoriametrics-logs-datasource',
    access: 'proxy',
    url: 'http://logs:9428',
    jsonData: { httpHeaderName1: 'Authorization' },
    secureJsonData: { httpHeaderValue1: 'Bearer s3cret' },
    ...over,
  });

  beforeAll(async () => {
    org = (await call('POST', '/api/orgs', { body: { name: 'ds-org' } })).body.orgId as number;
  });

  it('adds a data source in the org named by X-Grafana-Org-Id; secure values are never returned', async () => {
    const r = await call('POST', '/api/datasources', { org, body: ds() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: expect.any(Number), message: 'Datasource added', name: 'Logs A', datasource: { uid: 'logs-a', orgId: org } });
    const got = await call('GET', '/api/datasources/uid/logs-a', { org });
    expect(got.body).toMatchObject({ uid: 'logs-a', secureJsonFields: { httpHeaderValue1: true }, readOnly: false, version: 1 });
    expect(JSON.stringify(got.body)).not.toContain('s3cret');
    expect(state.datasourceByUid(org, 'logs-a')?.secureJsonData.httpHeaderValue1).toBe('Bearer s3cret');
  });

  it('is scoped by org: another org does not see it', async () => {
    const other = await call('GET', '/api/datasources/uid/logs-a', { org: 1 });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: 'Data source not found' });
  });

  it('refuses a duplicate uid or name with 409', async () => {
    expect((await call('POST', '/api/datasources', { org, body: ds({ name: 'Other' }) })).body).toEqual({
      message: 'data source with the same uid already exists',
    });
    const r = await call('POST', '/api/datasources', { org, body: ds({ uid: 'logs-b' }) });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ message: 'data source with the same name already exists' });
  });

  it('ignores readOnly in an API request: only provisioning makes a data source read-only', async () => {
    await call('POST', '/api/datasources', { org, body: ds({ uid: 'logs-ro', name: 'Try RO', readOnly: true }) });
    expect(state.datasourceByUid(org, 'logs-ro')?.readOnly).toBe(false);
  });

  it('updates by uid, keeping secure values not sent and bumping the version', async () => {
    const r = await call('PUT', '/api/datasources/uid/logs-a', { org, body: ds({ url: 'http://logs2:9428', secureJsonData: undefined }) });
    expect(r.body).toMatchObject({ message: 'Datasource updated', name: 'Logs A', datasource: { url: 'http://logs2:9428', version: 2 } });
    expect(state.datasourceByUid(org, 'logs-a')?.secureJsonData.httpHeaderValue1).toBe('Bearer s3cret');
  });

  it('keeps a single default per org', async () => {
    await call('PUT', '/api/datasources/uid/logs-a', { org, body: ds({ isDefault: true }) });
    await call('PUT', '/api/datasources/uid/logs-ro', { org, body: ds({ uid: 'logs-ro', name: 'Try RO', isDefault: true }) });
    expect(defaultDatasourceUids(state, org)).toEqual(['logs-ro']);
  });

  it('refuses changes to a provisioned (read-only) data source even for an org admin', async () => {
    state.provisionDataSource(org, { uid: 'prov', name: 'Provisioned', type: 'loki', url: 'http://loki:3100' });
    const put = await call('PUT', '/api/datasources/uid/prov', { org, body: { name: 'Provisioned', type: 'loki', access: 'proxy', url: 'http://evil' } });
    expect(put.status).toBe(403);
    expect(put.body).toEqual({ message: 'Cannot update read-only data source' });
    const del = await call('DELETE', '/api/datasources/uid/prov', { org });
    expect(del.status).toBe(403);
    expect(del.body).toEqual({ message: 'Cannot delete read-only data source' });
    expect(state.datasourceByUid(org, 'prov')?.url).toBe('http://loki:3100');
  });

  it('an Editor of the org may neither read nor change data sources (RBAC 403)', async () => {
    await call('POST', '/api/admin/users', { body: { login: 'ed', password: 'pw-ed', OrgId: org } });
    const ed = (await call('GET', '/api/users/lookup?loginOrEmail=ed')).body.id as number;
    await call('PATCH', `/api/orgs/${org}/users/${ed}`, { body: { role: 'Editor' } });
    const auth = basic('ed', 'pw-ed');
    const put = await call('PUT', '/api/datasources/uid/logs-a', { org, auth, body: ds({ url: 'http://evil' }) });
    expect(put.status).toBe(403);
    expect(put.body).toMatchObject({ title: 'Access denied', message: expect.stringContaining('datasources:write') });
    expect((await call('DELETE', '/api/datasources/uid/logs-a', { org, auth })).body.message).toContain('datasources:delete');
    expect((await call('POST', '/api/datasources', { org, auth, body: ds({ uid: 'x', name: 'x' }) })).status).toBe(403);
    expect((await call('GET', '/api/datasources', { org, auth })).status).toBe(403);
    expect(state.datasourceByUid(org, 'logs-a')?.url).not.toBe('http://evil');
  });

  it('a server admin who is not a member of the org gets no data-source access there', async () => {
    // Another admin first: an org never loses its last one.
    await call('POST', `/api/orgs/${org}/users`, { body: { loginOrEmail: 'una', role: 'Admin' } });
    expect((await call('DELETE', `/api/orgs/${org}/users/1`)).status).toBe(200);
    expect((await call('GET', '/api/datasources', { org })).status).toBe(403);
    await call('POST', `/api/orgs/${org}/users`, { body: { loginOrEmail: 'admin', role: 'Admin' } });
    expect((await call('GET', '/api/datasources', { org })).status).toBe(200);
  });

  it('deletes by uid: 200 "Data source deleted", then 404', async () => {
    const del = await call('DELETE', '/api/datasources/uid/logs-ro', { org });
    expect(del.body).toEqual({ message: 'Data source deleted', id: expect.any(Number) });
    expect((await call('DELETE', '/api/datasources/uid/logs-ro', { org })).status).toBe(404);
  });
});

describe('[users] auto_assign_org = false', () => {
  it('a user created into an org administers it; one created without lands in an org of its own', async () => {
    const sim = createGrafanaSimulator({ adminUser: 'admin', adminPassword: 'a', users: { autoAssignOrg: false } });
    const s = await serveApp(sim.app);
    try {
      const auth = basic('admin', 'a');
      const post = (path: string, body: unknown) =>
        fetch(s.url + path, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
          (r) => r.json() as Promise<Record<string, number>>,
        );
      const org = (await post('/api/orgs', { name: 'own' })).orgId as number;
      const inOrg = (await post('/api/admin/users', { login: 'in', password: 'pw-in', OrgId: org })).id as number;
      expect(sim.state.orgsOf(inOrg)).toEqual([{ orgId: org, name: 'own', role: 'Admin' }]);
      const solo = (await post('/api/admin/users', { login: 'solo', password: 'pw-solo' })).id as number;
      expect(sim.state.orgsOf(solo)).toEqual([{ orgId: expect.any(Number), name: 'solo', role: 'Admin' }]);
    } finally {
      await s.close();
    }
  });
});

describe('plugins (pkg/api/plugins.go GetPluginSettingByID)', () => {
  it("answers an installed plugin's settings and 404 with Grafana's message for any other id", async () => {
    const r = await call('GET', '/api/plugins/victoriametrics-logs-datasource/settings');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'victoriametrics-logs-datasource', type: 'datasource', enabled: true, info: { version: expect.any(String) } });
    const missing = await call('GET', '/api/plugins/victorialogs-datasource/settings');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Plugin not found, no installed plugin with that id');
    expect((await call('GET', '/api/plugins/victoriametrics-logs-datasource/settings', { auth: '' })).status).toBe(401);
  });
});
