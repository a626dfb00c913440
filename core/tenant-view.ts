import type { Condition } from './object-life.js';
import type { CoreSite } from './site.js';
import { CREATE_STEPS, type StepName } from './step-table.js';
import { deriveIdentity } from './identity.js';
import { isoTime, stamps } from './wire-time.js';

export type { StepName } from './step-table.js';
export type Outcome = 'created' | 'restored' | 'reissued' | 'resumed' | 'reconciled';
export type TenantStatus = 'provisioning' | 'ready' | 'deleting';

/** The secrets a tenant holds; each appears only in the answers the spec allows. */
export interface TenantSecrets {
  tsigSecret?: string;
  stateSecret?: string;
  apiToken?: string;
  logIngestToken?: string;
  logReadToken?: string;
  dashboardPassword?: string;
}

export interface TenantRecord {
  name: string;
  index: number;
  status: TenantStatus;
  createdAt: Date | string;
  updatedAt: Date | string;
  dashboardOrgId: number | null;
  secretsStored: boolean;
  steps: { name: string; ok: boolean; updatedAt: Date | string }[];
}

/** The tenant object of the wire contract (spec: Tenant), secrets only where given. */
export interface TenantView {
  name: string;
  index: number;
  status: TenantStatus;
  outcome?: Outcome;
  created_at: string;
  updated_at: string;
  network: { vrf_vni: number; vnet_vni_base: number; subnet: string; gateway: string };
  fabric: { controller_id: string; node: string };
  dns: { zone: string; reverse_zone: string; update_server: string; tsig_key_name: string; tsig_algorithm: string; tsig_secret?: string };
  state: { endpoint: string; bucket: string; key_prefix: string; access_key: string; secret_key?: string };
  log: { account_id: number; endpoint?: string; select_header?: string; ingest_token?: string; read_token?: string };
  dashboard: { url?: string; org_id?: number; username?: string; password?: string };
  api_token?: string;
  secrets_stored: boolean;
  steps: { name: StepName; ok: boolean; updated_at: string }[];
  /** On reads: the condition of the tenant's newest run (core/object-life.ts). */
  condition?: Condition;
}

export const LOG_SELECT_HEADER = 'X-Log-Project';

/** What a reader sends in LOG_SELECT_HEADER to choose a project: `<account_id>-<project>`. */
export function projectHeaderValue(accountId: number, project: number): string {
  return `${accountId}-${project}`;
}

export function dashboardUsername(tenant: string): string {
  return `tenant-${tenant}`;
}

const STEP_ORDER = new Map<string, number>(CREATE_STEPS.map((s, i) => [s, i]));

/**
 * What a tenant's view shows of the site: the core settings and the parts of the backends' slices
 * a tenant is handed (the whole `Site` is activities/site.ts, which core may not import).
 */
export type ViewedSite = CoreSite & {
  dns: { updateServer: string };
  state: { endpoint: string; bucket: string };
  logStore?: { endpoint: string };
  grafana?: { publicUrl: string };
};

export function viewTenant(site: ViewedSite, rec: TenantRecord, secrets: TenantSecrets = {}, outcome?: Outcome): TenantView {
  const id = deriveIdentity(site, rec.name, rec.index);
  const view: TenantView = {
    name: rec.name,
    index: rec.index,
    status: rec.status,
    ...(outcome ? { outcome } : {}),
    ...stamps(rec),
    network: { vrf_vni: id.vrfVni, vnet_vni_base: id.vnetVniBase, subnet: id.subnet, gateway: id.gateway },
    fabric: { controller_id: site.fabricController, node: site.node },
    dns: {
      zone: id.zone,
      reverse_zone: id.reverseZone,
      update_server: site.dns.updateServer,
      tsig_key_name: id.tsigKeyName,
      tsig_algorithm: id.tsigAlgorithm,
      ...(secrets.tsigSecret ? { tsig_secret: secrets.tsigSecret } : {}),
    },
    state: {
      endpoint: site.state.endpoint,
      bucket: site.state.bucket,
      key_prefix: id.stateKeyPrefix,
      access_key: id.stateAccessKey,
      ...(secrets.stateSecret ? { secret_key: secrets.stateSecret } : {}),
    },
    log: {
      account_id: id.logAccountId,
      ...(site.logStore ? { endpoint: site.logStore.endpoint, select_header: LOG_SELECT_HEADER } : {}),
      ...(secrets.logIngestToken ? { ingest_token: secrets.logIngestToken } : {}),
      ...(secrets.logReadToken ? { read_token: secrets.logReadToken } : {}),
    },
    dashboard: site.grafana
      ? {
          url: site.grafana.publicUrl,
          ...(rec.dashboardOrgId !== null ? { org_id: rec.dashboardOrgId } : {}),
          username: dashboardUsername(rec.name),
          ...(secrets.dashboardPassword ? { password: secrets.dashboardPassword } : {}),
        }
      : {},
    ...(secrets.apiToken ? { api_token: secrets.apiToken } : {}),
    secrets_stored: rec.secretsStored,
    steps: rec.steps
      .filter((s): s is typeof s & { name: StepName } => STEP_ORDER.has(s.name))
      .sort((a, b) => STEP_ORDER.get(a.name)! - STEP_ORDER.get(b.name)!)
      .map((s) => ({ name: s.name, ok: s.ok, updated_at: isoTime(s.updatedAt) })),
  };
  return view;
}

/**
 * The tenant view with the secrets of this answer added (a create's, or a reconcile's log tokens
 * and dashboard password): the workflow hands them over sealed, the API opens and adds them.
 */
export function withSecrets(view: TenantView, secrets: TenantSecrets): TenantView {
  return {
    ...view,
    dns: { ...view.dns, ...(secrets.tsigSecret ? { tsig_secret: secrets.tsigSecret } : {}) },
    state: { ...view.state, ...(secrets.stateSecret ? { secret_key: secrets.stateSecret } : {}) },
    log: {
      ...view.log,
      ...(secrets.logIngestToken ? { ingest_token: secrets.logIngestToken } : {}),
      ...(secrets.logReadToken ? { read_token: secrets.logReadToken } : {}),
    },
    dashboard: view.dashboard.username && secrets.dashboardPassword ? { ...view.dashboard, password: secrets.dashboardPassword } : view.dashboard,
    ...(secrets.apiToken ? { api_token: secrets.apiToken } : {}),
  };
}
