import type { ObjectOutcome } from '../../core/backend-outcome.js';

/** What the tenant steps need of the dashboards (Grafana): the tenant's organization, login and data source. */
export interface DashboardsPort {
  /** Without a password the existing login is adopted as it is. */
  ensure(spec: {
    tenant: string;
    username: string;
    password?: string;
    accountId: number;
    readToken: string;
  }): Promise<{ orgId: number; outcomes: ObjectOutcome[] }>;
  plan(spec: { tenant: string; username: string; password?: string; accountId: number; readToken: string }): Promise<ObjectOutcome[]>;
  loginExists(username: string): Promise<boolean>;
  remove(spec: { tenant: string; username: string }): Promise<void>;
}
