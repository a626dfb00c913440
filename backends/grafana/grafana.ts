/**
 * Dashboards adapter: one Grafana organization per tenant, one login that is an Editor there and a
 * member of no other organization, and the three log data sources, through Grafana's HTTP API with
 * the server admin's basic auth. Org-scoped calls carry X-Grafana-Org-Id.
 *
 * Editors hold no data-source permissions in Grafana, which is what keeps the tenant from changing
 * the data sources: the API cannot mark them read-only (only provisioning files can).
 */
import type { BackendCalls } from '../http/calls.js';
import { createHash } from 'node:crypto';
import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import { converge, ensure as ensureOne, plan as planOne, planned, type Observation, type ObjectKind } from '../reconcile/reconcile.js';
import { BackendHttp } from '../http/client.js';
import { dataSourceDrift, desiredDataSources, type DesiredDataSource, type ObservedDataSource } from './datasources.js';
import { dashboardUrl, deletedOrgName, orgName, tenantRole } from './names.js';

export interface GrafanaAdapterOptions {
  /** Grafana as the service reaches it. */
  url: string;
  adminUser: string;
  adminPassword: string;
  /** Grafana as tenants reach it. */
  publicUrl: string;
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
}

export interface DashboardsSpec {
  tenant: string;
  username: string;
  /**
   * Absent: the login is adopted as it is (a restore: the tenant holds its password, the service
   * does not). A login that does not exist yet needs one.
   */
  password?: string;
  logEndpoint: string;
  readToken: string;
  selectHeader: string;
  accountId: number;
}

export type DataSourceState = 'absent' | 'matches' | 'drifted';

export interface DashboardsObservation {
  org: { id: number; name: string } | null;
  login: { id: number; orgs: Array<{ orgId: number; role: string }> } | null;
  dataSources: Record<string, DataSourceState>;
}

export interface DashboardsAdapter {
  readonly publicUrl: string;
  /** The URL the tenant's login opens, for the org ensure returned. */
  urlFor(orgId: number): string;
  observe(spec: DashboardsSpec): Promise<DashboardsObservation>;
  ensure(spec: DashboardsSpec): Promise<{ orgId: number; outcomes: ObjectOutcome[] }>;
  /** What ensure would report, from reads alone. */
  plan(spec: DashboardsSpec): Promise<ObjectOutcome[]>;
  /** Whether the tenant's login exists (a restore adopts it rather than setting a new password). */
  loginExists(username: string): Promise<boolean>;
  /** Deletes the login, empties the organization and renames it `deleted-<tenant>-<id>`. */
  remove(spec: Pick<DashboardsSpec, 'tenant' | 'username'>): Promise<void>;
}

interface GrafanaUser {
  id: number;
  login: string;
  isGrafanaAdmin: boolean;
}

interface UserOrg {
  orgId: number;
  name: string;
  role: string;
}

interface OrgObservation extends Observation {
  id?: number;
}
interface LoginObservation extends Observation {
  user?: GrafanaUser;
}
interface MembershipObservation extends Observation {
  /** The login's organizations, read when there is an org to be a member of. */
  orgs?: UserOrg[];
}

const MARK_FIELD = 'address1';

/** What the service keeps in Grafana to know the password it set, without signing in. */
export function passwordMark(username: string, password: string): string {
  return `tenant-login-password:${createHash('sha256').update(`tenant-service dashboard login\n${username}\n${password}`).digest('hex')}`;
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** What the adapter's functions share: the API as the server admin. */
interface Grafana {
  api: BackendHttp;
  adminUser: string;
}

export function createGrafanaAdapter(opts: GrafanaAdapterOptions): DashboardsAdapter {
  const ctx: Grafana = {
    api: new BackendHttp('grafana', opts.url, { authorization: basic(opts.adminUser, opts.adminPassword) }, opts.timeoutMs, { ca: opts.ca, calls: opts.calls }),
    adminUser: opts.adminUser,
  };
  return {
    publicUrl: opts.publicUrl,
    urlFor: (orgId) => dashboardUrl(opts.publicUrl, orgId),
    loginExists: async (username) => (await lookupUser(ctx, username)) !== null,
    observe: (spec) => observe(ctx, spec),
    plan: (spec) => plan(ctx, spec),
    ensure: (spec) => ensure(ctx, spec),
    remove: (spec) => remove(ctx, spec),
  };
}

const inOrg = (orgId: number) => ({ 'X-Grafana-Org-Id': String(orgId) });

async function findOrg(ctx: Grafana, tenant: string): Promise<{ id: number; name: string } | null> {
  const res = await ctx.api.call({ path: `/api/orgs/name/${encodeURIComponent(orgName(tenant))}`, accept: [404] });
  return res.status === 404 ? null : res.json<{ id: number; name: string }>();
}

async function lookupUser(ctx: Grafana, login: string): Promise<GrafanaUser | null> {
  const res = await ctx.api.call({ path: '/api/users/lookup', query: { loginOrEmail: login }, accept: [404] });
  return res.status === 404 ? null : res.json<GrafanaUser>();
}

// The mark lives in the tenant org's address, which only server and org admins may change (the
// tenant is an Editor there): a digest of login and password, never the password.
async function readPasswordMark(ctx: Grafana, orgId: number): Promise<string> {
  return (await ctx.api.call({ path: `/api/orgs/${orgId}` })).json<{ address?: Record<string, string> }>().address?.[MARK_FIELD] ?? '';
}

async function writePasswordMark(ctx: Grafana, orgId: number, username: string, password: string): Promise<void> {
  await ctx.api.call({ method: 'PUT', path: `/api/orgs/${orgId}/address`, json: { [MARK_FIELD]: passwordMark(username, password) } });
}

async function orgsOf(ctx: Grafana, userId: number): Promise<UserOrg[]> {
  return (await ctx.api.call({ path: `/api/users/${userId}/orgs` })).json<UserOrg[]>();
}

/**
 * Data-source calls run as the server admin inside the tenant org, which needs the Admin role
 * there. Grafana gives it to the org's creator; this puts it back if someone took it away.
 */
async function ensureAdminSeat(ctx: Grafana, orgId: number): Promise<void> {
  const me = (await ctx.api.call({ path: '/api/user' })).json<{ id: number }>();
  const seat = (await orgsOf(ctx, me.id)).find((o) => o.orgId === orgId);
  if (!seat) await ctx.api.call({ method: 'POST', path: `/api/orgs/${orgId}/users`, json: { loginOrEmail: ctx.adminUser, role: 'Admin' } });
  else if (seat.role !== 'Admin') await ctx.api.call({ method: 'PATCH', path: `/api/orgs/${orgId}/users/${me.id}`, json: { role: 'Admin' } });
}

/** The tenant's organization: created, never corrected; found, the server admin's seat in it is kept. */
function orgKind(ctx: Grafana): ObjectKind<DashboardsSpec, OrgObservation> {
  return {
    object: (spec) => `dashboard org ${orgName(spec.tenant)}`,
    observe: async (spec) => {
      const org = await findOrg(ctx, spec.tenant);
      return { exists: !!org, drift: [], id: org?.id };
    },
    upkeep: async (_spec, seen) => ensureAdminSeat(ctx, seen.id!),
    async apply(spec) {
      const res = await ctx.api.call({ method: 'POST', path: '/api/orgs', json: { name: orgName(spec.tenant) }, accept: [409] });
      if (res.status === 200) return { held: { exists: true, drift: [], id: res.json<{ orgId: number }>().orgId } };
      // Created meanwhile by a concurrent run: adopt it.
      const again = await findOrg(ctx, spec.tenant);
      if (!again) throw new BackendError('grafana', `organization ${orgName(spec.tenant)} reported taken but not found`);
      await ensureAdminSeat(ctx, again.id);
      return { adopted: { exists: true, drift: [], id: again.id } };
    },
  };
}

/** The tenant's login, in its organization when there is one (its password mark is kept there). */
interface LoginWant {
  spec: DashboardsSpec;
  orgId?: number;
}

/** The tenant's login: created with its password, or its server-admin flag and password corrected. */
function loginKind(ctx: Grafana): ObjectKind<LoginWant, LoginObservation> {
  // Grafana's only check of a password is signing in as the tenant, which counts toward its
  // brute-force lockout of the tenant's login and fails where basic auth is off; and setting it
  // signs the tenant out everywhere. So the password is compared with the mark the service left
  // in the tenant org when it last set one, and set only when they differ (docs/decisions.md).
  const seen = async ({ spec, orgId }: LoginWant, user: GrafanaUser | null): Promise<LoginObservation> => {
    if (!user) return { exists: false, drift: [] };
    const stale = orgId !== undefined && spec.password !== undefined && (await readPasswordMark(ctx, orgId)) !== passwordMark(spec.username, spec.password);
    return { exists: true, drift: [...(user.isGrafanaAdmin ? ['grafana_admin'] : []), ...(stale ? ['password'] : [])], user };
  };
  return {
    object: ({ spec }) => `dashboard login ${spec.username}`,
    observe: async (want) => seen(want, await lookupUser(ctx, want.spec.username)),
    async apply(want, before) {
      if (before.user) return void (await correctLogin(ctx, want, before.user, before.drift));
      const { spec, orgId } = want;
      if (spec.password === undefined)
        throw new BackendError('grafana', `login ${spec.username} is absent and the service holds no password to create it with`, false);
      const res = await ctx.api.call({
        method: 'POST',
        path: '/api/admin/users',
        json: { name: spec.username, login: spec.username, password: spec.password, OrgId: orgId },
        accept: [412],
      });
      if (res.status === 200) {
        await writePasswordMark(ctx, orgId!, spec.username, spec.password);
        return { held: { exists: true, drift: [], user: { id: res.json<{ id: number }>().id, login: spec.username, isGrafanaAdmin: false } } };
      }
      const adopted = await seen(want, await lookupUser(ctx, spec.username));
      if (!adopted.user) throw new BackendError('grafana', `user ${spec.username} reported existing but not found`);
      await correctLogin(ctx, want, adopted.user, adopted.drift);
      return { adopted };
    },
  };
}

/** Correct the fields of an existing login that differ. */
async function correctLogin(ctx: Grafana, { spec, orgId }: LoginWant, user: GrafanaUser, drift: string[]): Promise<void> {
  if (drift.includes('grafana_admin')) {
    await ctx.api.call({ method: 'PUT', path: `/api/admin/users/${user.id}/permissions`, json: { isGrafanaAdmin: false } });
  }
  if (drift.includes('password') && spec.password !== undefined) {
    await ctx.api.call({ method: 'PUT', path: `/api/admin/users/${user.id}/password`, json: { password: spec.password } });
    await writePasswordMark(ctx, orgId!, spec.username, spec.password);
  }
}

/** The login's memberships, once there is a login: `loginExisted` false for one made by this ensure. */
interface MembershipWant {
  spec: DashboardsSpec;
  orgId?: number;
  user?: GrafanaUser;
  loginExisted: boolean;
}

/** Editor in the tenant org, member of nothing else (Grafana may have put a new user into org 1). */
function membershipKind(ctx: Grafana): ObjectKind<MembershipWant, MembershipObservation> {
  return {
    object: ({ spec }) => `dashboard membership ${spec.username}`,
    async observe({ orgId, user, loginExisted }) {
      if (!user) return { exists: false, drift: [] };
      if (orgId === undefined) return { exists: true, drift: ['role'] };
      const orgs = await orgsOf(ctx, user.id);
      return { exists: loginExisted, drift: loginExisted ? membershipDrift(orgs, orgId) : [], orgs };
    },
    async apply({ spec, orgId, user }, { orgs = [] }) {
      const own = orgs.find((o) => o.orgId === orgId);
      // Add before removing, so the user's current org moves to the tenant org.
      if (!own) {
        await ctx.api.call({ method: 'POST', path: `/api/orgs/${orgId}/users`, json: { loginOrEmail: spec.username, role: tenantRole }, accept: [409] });
      } else if (own.role !== tenantRole) {
        await ctx.api.call({ method: 'PATCH', path: `/api/orgs/${orgId}/users/${user!.id}`, json: { role: tenantRole } });
      }
      for (const other of orgs) {
        if (other.orgId === orgId) continue;
        await ctx.api.call({ method: 'DELETE', path: `/api/orgs/${other.orgId}/users/${user!.id}`, accept: [404] });
      }
    },
  };
}

async function readDataSource(ctx: Grafana, orgId: number, uid: string): Promise<ObservedDataSource | null> {
  const res = await ctx.api.call({ path: `/api/datasources/uid/${uid}`, headers: inOrg(orgId), accept: [404] });
  return res.status === 404 ? null : res.json<ObservedDataSource>();
}

/** One of the tenant's log data sources, in its organization when there is one. */
function dataSourceKind(ctx: Grafana): ObjectKind<{ orgId?: number; want: DesiredDataSource }> {
  return {
    object: ({ want }) => `dashboard data source ${want.uid}`,
    async observe({ orgId, want }) {
      const have = orgId !== undefined ? await readDataSource(ctx, orgId, want.uid) : null;
      return { exists: !!have, drift: have ? dataSourceDrift(have, want) : [] };
    },
    async apply({ orgId, want }, seen) {
      if (!seen.exists) await ctx.api.call({ method: 'POST', path: '/api/datasources', headers: inOrg(orgId!), json: want });
      else await ctx.api.call({ method: 'PUT', path: `/api/datasources/uid/${want.uid}`, headers: inOrg(orgId!), json: want });
    },
  };
}

async function observe(ctx: Grafana, spec: DashboardsSpec): Promise<DashboardsObservation> {
  const org = await findOrg(ctx, spec.tenant);
  const user = await lookupUser(ctx, spec.username);
  const login = user
    ? {
        id: user.id,
        orgs: (await orgsOf(ctx, user.id)).map((o) => ({ orgId: o.orgId, role: o.role })),
      }
    : null;
  const dataSources: Record<string, DataSourceState> = {};
  for (const want of desiredDataSources(spec)) {
    const have = org ? await readDataSource(ctx, org.id, want.uid) : null;
    dataSources[want.uid] = !have ? 'absent' : dataSourceDrift(have, want).length ? 'drifted' : 'matches';
  }
  return { org: org ? { id: org.id, name: org.name } : null, login, dataSources };
}

/** What ensure would report, from reads alone (an org the service admin has no seat in shows no data sources). */
async function plan(ctx: Grafana, spec: DashboardsSpec): Promise<ObjectOutcome[]> {
  const org = await planned(orgKind(ctx), spec);
  const orgId = org.held.id;
  const login = await planned(loginKind(ctx), { spec, orgId });
  const user = login.held.user;
  const rest = await allOf([
    planOne(membershipKind(ctx), { spec, orgId, user, loginExisted: !!user }),
    ...desiredDataSources(spec).map((want) => planOne(dataSourceKind(ctx), { orgId, want })),
  ]);
  return [org.outcome, login.outcome, ...rest];
}

async function ensure(ctx: Grafana, spec: DashboardsSpec): Promise<{ orgId: number; outcomes: ObjectOutcome[] }> {
  const org = await converge(orgKind(ctx), spec);
  const orgId = org.held.id!;
  const login = await converge(loginKind(ctx), { spec, orgId });
  const membership = { spec, orgId, user: login.held.user!, loginExisted: login.outcome.result !== 'created' };
  const rest = await allOf([
    ensureOne(membershipKind(ctx), membership),
    ...desiredDataSources(spec).map((want) => ensureOne(dataSourceKind(ctx), { orgId, want })),
  ]);
  return { orgId, outcomes: [org.outcome, login.outcome, ...rest] };
}

/**
 * The membership (the login's organizations) and the three data sources (the organization's) touch
 * nothing of each other, so they are asked at once: a create's step took 15 calls one after another,
 * 9 of them these (at a site's 30 ms a call, ~0.18 s of each create, and of each round of the
 * fabric's group commit, where the carried tenants' last step holds their callers' next creates).
 * Every call settles before the step answers, so a retried step never races its own earlier writes.
 */
async function allOf<T>(calls: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

async function remove(ctx: Grafana, spec: Pick<DashboardsSpec, 'tenant' | 'username'>): Promise<void> {
  const user = await lookupUser(ctx, spec.username);
  if (user) await ctx.api.call({ method: 'DELETE', path: `/api/admin/users/${user.id}`, accept: [404] });
  const org = await findOrg(ctx, spec.tenant);
  if (!org) return;
  await ensureAdminSeat(ctx, org.id);
  const sources = (await ctx.api.call({ path: '/api/datasources', headers: inOrg(org.id) })).json<Array<{ uid: string }>>();
  for (const ds of sources) await ctx.api.call({ method: 'DELETE', path: `/api/datasources/uid/${ds.uid}`, headers: inOrg(org.id), accept: [404] });
  const me = (await ctx.api.call({ path: '/api/user' })).json<{ id: number }>();
  const members = (await ctx.api.call({ path: `/api/orgs/${org.id}/users` })).json<Array<{ userId: number }>>();
  for (const m of members) {
    if (m.userId !== me.id) await ctx.api.call({ method: 'DELETE', path: `/api/orgs/${org.id}/users/${m.userId}`, accept: [404] });
  }
  await ctx.api.call({ method: 'PUT', path: `/api/orgs/${org.id}`, json: { name: deletedOrgName(spec.tenant, org.id) } });
}

/** What differs of a login's memberships: `role` in the tenant org (or none there), `other orgs` it is also in. */
function membershipDrift(orgs: Array<{ orgId: number; role: string }>, orgId: number): string[] {
  const own = orgs.find((o) => o.orgId === orgId);
  return [...(own?.role === tenantRole ? [] : ['role']), ...(orgs.some((o) => o.orgId !== orgId) ? ['other orgs'] : [])];
}
