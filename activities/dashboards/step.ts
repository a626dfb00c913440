import { updateTenant } from '../../db/queries/tenants.js';
import type { TenantStep } from '../tenant-step.js';
import { dashboardUsername } from '../tenant/view.js';

/** `dashboards`: the tenant's organization, its Editor login and the three log data sources. */
export const dashboardsStep: TenantStep<'dashboards'> = {
  name: 'dashboards',
  appliesTo: (site) => site.grafana !== undefined,
  async ensure({ deps, tenant: t, secrets }) {
    const { orgId, outcomes } = await deps.ports.dashboards!.ensure({
      tenant: t.name,
      username: dashboardUsername(t.name),
      password: secrets.dashboardPassword!,
      accountId: t.logAccountId,
      readToken: secrets.logReadToken!,
    });
    await updateTenant(deps.db, t.name, { dashboardOrgId: orgId });
    return outcomes;
  },
  remove: async ({ deps, tenant: t }) => deps.ports.dashboards?.remove({ tenant: t.name, username: dashboardUsername(t.name) }),
};
