/**
 * Grafana's HTTP API, the subset the dashboards area uses: admin organizations and their users,
 * admin users, user lookup, and per-org data sources scoped by X-Grafana-Org-Id, with Grafana's
 * statuses and `{"message": "..."}` error bodies. Basic auth only; the configured admin is a Grafana
 * server admin and Admin of org 1 ("Main Org."), as on a fresh install.
 *
 * References: docs/sources/developers/http_api/{org,admin,user,data_source,auth}.md and the handlers
 * cited in orgs.ts, users.ts, datasources.ts; [users] auto_assign_org* defaults from grafana.ini.
 *
 * Run: `serveApp(createGrafanaSimulator({ adminUser, adminPassword }).app)`.
 */
import { Hono } from 'hono';
import { PLUGIN_ROUTES, VICTORIALOGS_PLUGIN } from './plugins.js';
import { withFaults, type Faults } from '../faults.js';
import { DATA_SOURCE_ROUTES } from './datasources.js';
import { ORG_ROUTES } from './orgs.js';
import { mountGrafanaRoutes } from './routes.js';
import { GrafanaState, type UsersConfig } from './state.js';
import { USER_ROUTES } from './users.js';

export interface GrafanaSimulatorOptions {
  adminUser?: string;
  adminPassword?: string;
  /** grafana.ini [users]; defaults are Grafana's: auto-assign new users to org 1 as Viewer. */
  users?: Partial<UsersConfig>;
  /** `[auth.basic] password_policy = true`: the strong password rules (see password.ts). */
  passwordPolicy?: boolean;
  /** Installed plugins; default the VictoriaLogs data source plugin alone. */
  plugins?: Array<{ id: string; name: string; version: string }>;
}

export function createGrafanaSimulator(opts: GrafanaSimulatorOptions = {}): { app: Hono; state: GrafanaState; faults: Faults } {
  const app = new Hono();
  const faults = withFaults(app);
  const state = new GrafanaState(
    { autoAssignOrg: true, autoAssignOrgId: 1, autoAssignOrgRole: 'Viewer', ...opts.users },
    { login: opts.adminUser ?? 'admin', password: opts.adminPassword ?? 'admin' },
  );
  state.passwordPolicy = opts.passwordPolicy ?? false;
  for (const p of opts.plugins ?? [VICTORIALOGS_PLUGIN]) state.plugins.set(p.id, p);
  mountGrafanaRoutes(app, state, [...ORG_ROUTES, ...USER_ROUTES, ...DATA_SOURCE_ROUTES, ...PLUGIN_ROUTES]);
  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  return { app, state, faults };
}

export type { GrafanaState } from './state.js';
