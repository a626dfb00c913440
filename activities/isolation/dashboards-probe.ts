import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { dashboardUsername } from '../../core/tenant-view.js';
import { getTenantRow } from '../../db/queries/tenants.js';
import { BackendHttp } from '../../backends/http/client.js';
import type { ActivityDeps } from '../deps.js';
import { canaryCredentials } from './credentials.js';
import { verdict } from './verdict.js';

/**
 * `dashboards.isolation-probe`: the credential's dashboard login signs in where the tenant does
 * (the site's public Grafana address) and asks which organizations it belongs to
 * (`GET /api/user/orgs`, which needs no permission): reached when the object's organization is
 * among them. Read only: nothing to clean. One sign-in per probe, never a wrong password, so
 * Grafana's brute-force lock is never near.
 */
export async function dashboardsProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const grafana = deps.site.grafana!;
  const [from, toRow] = await Promise.all([canaryCredentials(deps, input.credentialOf), getTenantRow(deps.db, input.objectOf)]);
  const orgId = toRow?.dashboardOrgId;
  if (orgId === null || orgId === undefined) throw new Error(`canary ${input.objectOf} has no dashboard organization yet`);
  const login = Buffer.from(`${dashboardUsername(input.credentialOf)}:${from.secrets.dashboardPassword}`).toString('base64');
  const http = new BackendHttp('grafana', grafana.publicUrl, {}, deps.site.backendTimeoutMs, { ca: grafana.ca, calls: deps.calls });
  const answer = await http.call({ path: '/api/user/orgs', headers: { authorization: `Basic ${login}` }, accept: [401] });
  const orgs = answer.status === 200 ? answer.json<{ orgId: number; role: string }[]>() : [];
  const member = orgs.find((o) => o.orgId === orgId);
  return verdict('dashboards', 'dashboard login', input, [
    { what: `sign-in to organization ${orgId}${member ? ` as ${member.role}` : ''}`, reached: member !== undefined },
  ]);
}
