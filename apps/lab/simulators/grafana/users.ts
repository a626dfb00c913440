/**
 * Users: admin users API (create, password, permissions, delete), user lookup, a user's orgs, and
 * the signed-in user. Followed: grafana pkg/api/admin_users.go (AdminCreateUser 412 "User with email
 * '…' or username '…' already exists", 400 "Password is missing or too short"; AdminUpdateUserPassword
 * 400 "New password too short"), pkg/api/user.go (lookup 404 "user not found"), and
 * userimpl.Create + org.GetIDForNewUser for where a new user lands:
 *   OrgId given          -> that org only;
 *   else auto_assign_org -> auto_assign_org_id (org 1, "Main Org."), created if missing;
 *   else                 -> a new org named after the user;
 * with role auto_assign_org_role when auto_assign_org is on, Admin otherwise.
 */
import { apiError, bindJson, changeById, intParam, serverAdmin, withCaller, idAndForm } from './auth.js';
import { passwordRefusal } from './password.js';
import type { GrafanaState, User } from './state.js';
import type { GrafanaHandler, GrafanaRoute } from './routes.js';

function userDto(u: User) {
  return {
    id: u.id,
    uid: u.uid,
    email: u.email,
    name: u.name,
    login: u.login,
    theme: '',
    orgId: u.orgId,
    isGrafanaAdmin: u.isGrafanaAdmin,
    isDisabled: false,
    isExternal: false,
    authLabels: [],
    updatedAt: u.updatedAt,
    createdAt: u.createdAt,
    avatarUrl: '',
  };
}

function landingOrg(state: GrafanaState, login: string): number {
  const cfg = state.usersConfig;
  if (cfg.autoAssignOrg) {
    if (!state.orgs.has(cfg.autoAssignOrgId)) return state.createOrg('Main Org.').id;
    return cfg.autoAssignOrgId;
  }
  return state.createOrg(state.orgByName(login) ? `${login}-${state.orgs.size + 1}` : login).id;
}

const createUser: GrafanaHandler = (state) =>
  serverAdmin(state, 'users:create', async (c) => {
    const form = await bindJson(c);
    if (form instanceof Response) return form;
    const email = typeof form.email === 'string' ? form.email : '';
    let login = typeof form.login === 'string' ? form.login : '';
    const password = typeof form.password === 'string' ? form.password : '';
    if (login === '') login = email;
    if (login === '') return apiError(c, 400, 'Validation error, need specify either username or email');
    const refused = passwordRefusal(password, state.passwordPolicy);
    if (refused) return apiError(c, 400, password.length < 4 ? 'Password is missing or too short' : refused);
    if (state.userByLoginOrEmail(login) || (email !== '' && state.userByLoginOrEmail(email))) {
      return apiError(c, 412, `User with email '${email}' or username '${typeof form.login === 'string' ? form.login : ''}' already exists`);
    }
    const requested = typeof form.OrgId === 'number' && form.OrgId > 0 ? form.OrgId : undefined;
    if (requested !== undefined && !state.orgs.has(requested)) return apiError(c, 400, 'organization not found');
    const orgId = requested ?? landingOrg(state, login);
    const user = state.createUser({ login, email, name: typeof form.name === 'string' ? form.name : '', password, orgId, isGrafanaAdmin: false });
    state.setRole(orgId, user.id, state.usersConfig.autoAssignOrg ? state.usersConfig.autoAssignOrgRole : 'Admin');
    return c.json({ id: user.id, uid: user.uid, message: 'User created' }, 200);
  });

const lookupUser: GrafanaHandler = (state) =>
  serverAdmin(state, 'users:read', (c) => {
    const u = state.userByLoginOrEmail(c.req.query('loginOrEmail') ?? '');
    return u ? c.json(userDto(u), 200) : apiError(c, 404, 'user not found');
  });

const userOrgs: GrafanaHandler = (state) =>
  serverAdmin(state, 'users:read', (c) => {
    const id = intParam(c.req.param('id'));
    if (id === undefined) return apiError(c, 400, 'id is invalid');
    return c.json(state.orgsOf(id), 200);
  });

const readUser: GrafanaHandler = (state) =>
  serverAdmin(state, 'users:read', (c) => {
    const u = state.users.get(intParam(c.req.param('id')) ?? -1);
    return u ? c.json(userDto(u), 200) : apiError(c, 404, 'user not found');
  });

const setUserPassword: GrafanaHandler = (state) =>
  serverAdmin(
    state,
    'users.password:update',
    idAndForm('id', (c, id, form) => {
      const password = typeof form.password === 'string' ? form.password : '';
      const refused = passwordRefusal(password, state.passwordPolicy);
      if (refused) return apiError(c, 400, password.length < 4 ? 'New password too short' : refused);
      const u = state.users.get(id);
      if (!u) return apiError(c, 404, 'user not found');
      u.password = password;
      u.updatedAt = new Date().toISOString();
      // As AdminUpdateUserPassword does: the login's failed attempts are reset (and its sessions,
      // which the simulator does not keep, revoked).
      state.loginAttempts.delete(u.login.toLowerCase());
      return c.json({ message: 'User password updated' }, 200);
    }),
  );

const setUserPermissions: GrafanaHandler = (state) =>
  changeById(state, 'users.permissions:update', 'id', state.users, [404, 'user not found'], (c, u, form) => {
    u.isGrafanaAdmin = form.isGrafanaAdmin === true;
    return c.json({ message: 'User permissions updated' }, 200);
  });

const deleteUser: GrafanaHandler = (state) =>
  serverAdmin(state, 'users:delete', (c) => {
    const id = intParam(c.req.param('id'));
    if (id === undefined) return apiError(c, 400, 'id is invalid');
    if (!state.users.has(id)) return apiError(c, 404, 'user not found');
    state.deleteUser(id);
    return c.json({ message: 'User deleted' }, 200);
  });

const signedInUser: GrafanaHandler = (state) => withCaller(state, (c, caller) => c.json(userDto(caller.user), 200));

/**
 * The signed-in user's own organizations, with its role in each (`GET /api/user/orgs`, "Organizations
 * of the actual User", docs: developers/http_api/user; pkg/api/user.go GetSignedInUserOrgList): no
 * permission needed, so any login may ask which organizations it reaches.
 */
const signedInUserOrgs: GrafanaHandler = (state) => withCaller(state, (c, caller) => c.json(state.orgsOf(caller.user.id), 200));

export const USER_ROUTES: GrafanaRoute[] = [
  ['post', '/api/admin/users', createUser],
  ['get', '/api/users/lookup', lookupUser],
  ['get', '/api/users/:id/orgs', userOrgs],
  ['get', '/api/users/:id', readUser],
  ['put', '/api/admin/users/:id/password', setUserPassword],
  ['put', '/api/admin/users/:id/permissions', setUserPermissions],
  ['delete', '/api/admin/users/:id', deleteUser],
  ['get', '/api/user', signedInUser],
  ['get', '/api/user/orgs', signedInUserOrgs],
];
