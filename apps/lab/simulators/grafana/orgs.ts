/**
 * Admin organizations API: /api/orgs and /api/orgs/:orgId/users.
 * Followed: grafana pkg/api/org.go (CreateOrg 409 "Organization name taken", getOrgHelper/GetOrgByName
 * 404 "Organization not found", updateOrgHelper 400 "Organization name taken") and org_users.go
 * (addOrgUserHelper 404 "User not found" / 409 "User is already member of this organization",
 * updateOrgUserHelper and removeOrgUserHelper with their last-admin 400s), docs http_api/org.md.
 */
import { apiError, bindJson, changeById, intParam, serverAdmin } from './auth.js';
import { isOrgRole, type Org } from './state.js';
import type { GrafanaHandler, GrafanaRoute } from './routes.js';

function orgDetails(org: Org) {
  return { id: org.id, name: org.name, address: { ...org.address } };
}

const ADDRESS_FIELDS = ['address1', 'address2', 'city', 'zipCode', 'state', 'country'] as const;

const createOrg: GrafanaHandler = (state) =>
  serverAdmin(state, 'orgs:create', async (c, caller) => {
    const body = await bindJson(c);
    if (body instanceof Response) return body;
    if (typeof body.name !== 'string' || body.name === '') return apiError(c, 400, 'bad request data');
    if (state.orgByName(body.name)) return apiError(c, 409, 'Organization name taken');
    const org = state.createOrg(body.name);
    // CreateWithMember: the creator administers the new org.
    state.setRole(org.id, caller.user.id, 'Admin');
    return c.json({ orgId: org.id, message: 'Organization created' }, 200);
  });

const orgByName: GrafanaHandler = (state) =>
  serverAdmin(state, 'orgs:read', (c) => {
    const org = state.orgByName(c.req.param('name') ?? '');
    return org ? c.json(orgDetails(org), 200) : apiError(c, 404, 'Organization not found');
  });

const readOrg: GrafanaHandler = (state) =>
  serverAdmin(state, 'orgs:read', (c) => {
    const id = intParam(c.req.param('orgId'));
    if (id === undefined) return apiError(c, 400, 'orgId is invalid');
    const org = state.orgs.get(id);
    return org ? c.json(orgDetails(org), 200) : apiError(c, 404, 'Organization not found');
  });

const updateOrg: GrafanaHandler = (state) =>
  changeById(state, 'orgs:write', 'orgId', state.orgs, [500, 'Failed to update organization'], (c, org, body, id) => {
    const name = typeof body.name === 'string' ? body.name : '';
    const taken = state.orgByName(name);
    if (taken && taken.id !== id) return apiError(c, 400, 'Organization name taken');
    org.name = name;
    return c.json({ message: 'Organization updated' }, 200);
  });

// UpdateOrgAddress (pkg/api/org.go, docs http_api/org.md "Update Org address"): every field is
// replaced by the form's (absent: empty), as updateOrgAddressHelper does.
const updateOrgAddress: GrafanaHandler = (state) =>
  changeById(state, 'orgs:write', 'orgId', state.orgs, [500, 'Failed to update org address'], (c, org, body) => {
    for (const f of ADDRESS_FIELDS) org.address[f] = typeof body[f] === 'string' ? body[f] : '';
    return c.json({ message: 'Address updated' }, 200);
  });

const orgUsers: GrafanaHandler = (state) =>
  serverAdmin(state, 'org.users:read', (c) => {
    const id = intParam(c.req.param('orgId'));
    if (id === undefined) return apiError(c, 400, 'orgId is invalid');
    const members = [...(state.members.get(id) ?? new Map()).entries()];
    return c.json(
      members.flatMap(([userId, role]) => {
        const u = state.users.get(userId);
        return u ? [{ orgId: id, userId, email: u.email, name: u.name, avatarUrl: '', login: u.login, role, lastSeenAt: u.updatedAt, lastSeenAtAge: '' }] : [];
      }),
      200,
    );
  });

const addOrgUser: GrafanaHandler = (state) =>
  serverAdmin(state, 'org.users:add', async (c) => {
    const id = intParam(c.req.param('orgId'));
    if (id === undefined) return apiError(c, 400, 'orgId is invalid');
    const body = await bindJson(c);
    if (body instanceof Response) return body;
    if (!isOrgRole(body.role)) return apiError(c, 400, 'Invalid role specified');
    const user = typeof body.loginOrEmail === 'string' ? state.userByLoginOrEmail(body.loginOrEmail) : undefined;
    if (!user) return apiError(c, 404, 'User not found');
    if (!state.orgs.has(id)) return apiError(c, 404, 'Organization not found');
    if (state.roleOf(id, user.id)) return apiError(c, 409, 'User is already member of this organization', { userId: user.id });
    state.setRole(id, user.id, body.role);
    if (!state.orgs.has(user.orgId) || !state.roleOf(user.orgId, user.id)) user.orgId = id;
    return c.json({ message: 'User added to organization', userId: user.id }, 200);
  });

const updateOrgUser: GrafanaHandler = (state) =>
  serverAdmin(state, 'org.users:write', async (c) => {
    const id = intParam(c.req.param('orgId'));
    if (id === undefined) return apiError(c, 400, 'orgId is invalid');
    const userId = intParam(c.req.param('userId'));
    if (userId === undefined) return apiError(c, 400, 'userId is invalid');
    const body = await bindJson(c);
    if (body instanceof Response) return body;
    if (!isOrgRole(body.role)) return apiError(c, 400, 'Invalid role specified');
    const current = state.roleOf(id, userId);
    if (!current) return apiError(c, 404, 'User not found');
    if (current === 'Admin' && body.role !== 'Admin' && state.orgAdmins(id) === 1) {
      return apiError(c, 400, 'Cannot change role so that there is no organization admin left');
    }
    state.setRole(id, userId, body.role);
    return c.json({ message: 'Organization user updated' }, 200);
  });

const removeOrgUser: GrafanaHandler = (state) =>
  serverAdmin(state, 'org.users:remove', (c) => {
    const id = intParam(c.req.param('orgId'));
    if (id === undefined) return apiError(c, 400, 'orgId is invalid');
    const userId = intParam(c.req.param('userId'));
    if (userId === undefined) return apiError(c, 400, 'userId is invalid');
    const current = state.roleOf(id, userId);
    if (!current) return apiError(c, 404, 'User not found');
    if (current === 'Admin' && state.orgAdmins(id) === 1) return apiError(c, 400, 'Cannot remove last organization admin');
    state.removeMember(id, userId);
    return c.json({ message: 'User removed from organization' }, 200);
  });

export const ORG_ROUTES: GrafanaRoute[] = [
  ['post', '/api/orgs', createOrg],
  ['get', '/api/orgs/name/:name', orgByName],
  ['get', '/api/orgs/:orgId', readOrg],
  ['put', '/api/orgs/:orgId', updateOrg],
  ['put', '/api/orgs/:orgId/address', updateOrgAddress],
  ['get', '/api/orgs/:orgId/users', orgUsers],
  ['post', '/api/orgs/:orgId/users', addOrgUser],
  ['patch', '/api/orgs/:orgId/users/:userId', updateOrgUser],
  ['delete', '/api/orgs/:orgId/users/:userId', removeOrgUser],
];
