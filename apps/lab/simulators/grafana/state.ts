/**
 * Grafana's model as far as the dashboards area touches it: organizations, users, org memberships
 * with a role, and per-org data sources. Plain maps, so tests can inspect and bend them.
 */

export type OrgRole = 'Viewer' | 'Editor' | 'Admin';

export function isOrgRole(v: unknown): v is OrgRole {
  return v === 'Viewer' || v === 'Editor' || v === 'Admin';
}

export interface Org {
  id: number;
  name: string;
  address: OrgAddress;
}

export interface OrgAddress {
  address1: string;
  address2: string;
  city: string;
  zipCode: string;
  state: string;
  country: string;
}

export interface User {
  id: number;
  uid: string;
  login: string;
  email: string;
  name: string;
  password: string;
  isGrafanaAdmin: boolean;
  /** The user's current org (used when a request carries no X-Grafana-Org-Id). */
  orgId: number;
  createdAt: string;
  updatedAt: string;
}

export interface DataSource {
  id: number;
  uid: string;
  orgId: number;
  name: string;
  type: string;
  access: string;
  url: string;
  user: string;
  database: string;
  basicAuth: boolean;
  basicAuthUser: string;
  withCredentials: boolean;
  isDefault: boolean;
  jsonData: Record<string, unknown>;
  /** Stored decrypted here so tests can check what was written; the API only ever reveals which keys are set. */
  secureJsonData: Record<string, string>;
  version: number;
  /** Only provisioning files set this; the HTTP API ignores it (AddDataSourceCommand.ReadOnly is `json:"-"`). */
  readOnly: boolean;
}

/** The [users] settings of grafana.ini that decide where a new user lands. */
export interface UsersConfig {
  autoAssignOrg: boolean;
  autoAssignOrgId: number;
  autoAssignOrgRole: OrgRole;
}

export class GrafanaState {
  orgs = new Map<number, Org>();
  users = new Map<number, User>();
  /** orgId -> userId -> role */
  members = new Map<number, Map<number, OrgRole>>();
  datasources = new Map<number, DataSource>();
  /** Installed plugins by id (the lab's Grafana has the VictoriaLogs data source plugin). */
  plugins = new Map<string, { id: string; name: string; version: string }>();
  /** `[auth.basic] password_policy`: the strong rules for new and updated passwords. */
  passwordPolicy = false;
  /** Every basic-auth sign-in attempt by login, as Grafana's login attempt store counts them. */
  loginAttempts = new Map<string, { ok: number; failed: number; failedAt: number[] }>();
  private nextOrg = 1;
  private nextUser = 1;
  private nextDs = 1;

  constructor(
    readonly usersConfig: UsersConfig,
    admin: { login: string; password: string },
  ) {
    const main = this.createOrg('Main Org.');
    const u = this.createUser({ login: admin.login, email: 'admin@localhost', name: '', password: admin.password, orgId: main.id, isGrafanaAdmin: true });
    this.setRole(main.id, u.id, 'Admin');
  }

  createOrg(name: string): Org {
    const org: Org = { id: this.nextOrg++, name, address: { address1: '', address2: '', city: '', zipCode: '', state: '', country: '' } };
    this.orgs.set(org.id, org);
    this.members.set(org.id, new Map());
    return org;
  }

  orgByName(name: string): Org | undefined {
    return [...this.orgs.values()].find((o) => o.name === name);
  }

  createUser(u: Omit<User, 'id' | 'uid' | 'createdAt' | 'updatedAt'>): User {
    const now = new Date().toISOString();
    const user: User = { ...u, id: this.nextUser++, uid: `u${Math.random().toString(36).slice(2, 12)}`, createdAt: now, updatedAt: now };
    this.users.set(user.id, user);
    return user;
  }

  /** Login or email, case-insensitively, as Grafana's GetByLogin does. */
  userByLoginOrEmail(v: string): User | undefined {
    const k = v.toLowerCase();
    return [...this.users.values()].find((u) => u.login.toLowerCase() === k || (u.email !== '' && u.email.toLowerCase() === k));
  }

  roleOf(orgId: number, userId: number): OrgRole | undefined {
    return this.members.get(orgId)?.get(userId);
  }

  setRole(orgId: number, userId: number, role: OrgRole): void {
    this.members.get(orgId)?.set(userId, role);
  }

  orgsOf(userId: number): Array<{ orgId: number; name: string; role: OrgRole }> {
    const out: Array<{ orgId: number; name: string; role: OrgRole }> = [];
    for (const [orgId, m] of this.members) {
      const role = m.get(userId);
      const org = this.orgs.get(orgId);
      if (role && org) out.push({ orgId, name: org.name, role });
    }
    return out;
  }

  /** Removing a membership moves a user whose current org it was to another of their orgs. */
  removeMember(orgId: number, userId: number): void {
    this.members.get(orgId)?.delete(userId);
    const user = this.users.get(userId);
    if (user && user.orgId === orgId) user.orgId = this.orgsOf(userId)[0]?.orgId ?? 0;
  }

  deleteUser(userId: number): void {
    for (const m of this.members.values()) m.delete(userId);
    this.users.delete(userId);
  }

  orgAdmins(orgId: number): number {
    return [...(this.members.get(orgId)?.values() ?? [])].filter((r) => r === 'Admin').length;
  }

  datasourcesOf(orgId: number): DataSource[] {
    return [...this.datasources.values()].filter((d) => d.orgId === orgId).sort((a, b) => a.name.localeCompare(b.name));
  }

  datasourceByUid(orgId: number, uid: string): DataSource | undefined {
    return this.datasourcesOf(orgId).find((d) => d.uid === uid);
  }

  addDataSource(d: Omit<DataSource, 'id' | 'version'>): DataSource {
    const ds: DataSource = { ...d, id: this.nextDs++, version: 1 };
    this.datasources.set(ds.id, ds);
    if (ds.isDefault) this.onlyDefault(ds);
    return ds;
  }

  /** One default per org: setting it on one clears it on the others (updateIsDefaultFlag). */
  onlyDefault(ds: DataSource): void {
    for (const other of this.datasourcesOf(ds.orgId)) if (other.id !== ds.id) other.isDefault = false;
  }

  /** A data source as file provisioning creates it (`editable: false` makes it read-only). */
  provisionDataSource(orgId: number, d: Partial<DataSource> & { uid: string; name: string; type: string }): DataSource {
    return this.addDataSource({
      orgId,
      access: 'proxy',
      url: '',
      user: '',
      database: '',
      basicAuth: false,
      basicAuthUser: '',
      withCredentials: false,
      isDefault: false,
      jsonData: {},
      secureJsonData: {},
      readOnly: true,
      ...d,
    });
  }
}
