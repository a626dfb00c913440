import { updateTenant } from '../../db/queries/tenants.js';
import { seal } from '../../db/seal.js';
import type { StepModule, TenantStepContext } from '../tenant-step-module.js';
import { newDashboardPassword } from '../secrets.js';
import { dashboardUsername } from '../../core/tenant-view.js';

/**
 * The login's password: the registry's; or, when it holds none (a restore after the registry was
 * lost), none at all if the login still exists: it is adopted as it is, and the tenant keeps the
 * password it holds; else a new one, kept sealed.
 */
async function passwordOf({ deps, tenant: t, secrets }: TenantStepContext): Promise<string | undefined> {
  if (secrets.dashboardPassword) return secrets.dashboardPassword;
  if (await deps.ports.dashboards!.loginExists(dashboardUsername(t.name))) return undefined;
  const password = newDashboardPassword();
  await updateTenant(deps.db, t.name, { dashboardPassword: seal(deps.keys, password) });
  return password;
}

/** `dashboards`: the tenant's organization, its Editor login and the three log data sources. */
export const dashboardsStep: StepModule<'dashboards'> = {
  name: 'dashboards',
  appliesTo: (site) => site.grafana !== undefined,
  async ensure(ctx) {
    const { deps, tenant: t, secrets } = ctx;
    const password = await passwordOf(ctx);
    const { orgId, outcomes } = await deps.ports.dashboards!.ensure({
      tenant: t.name,
      username: dashboardUsername(t.name),
      ...(password !== undefined ? { password } : {}),
      accountId: t.logAccountId,
      readToken: secrets.logReadToken!,
    });
    await updateTenant(deps.db, t.name, { dashboardOrgId: orgId });
    return outcomes;
  },
  plan: ({ deps, tenant: t, secrets }) =>
    deps.ports.dashboards!.plan({
      tenant: t.name,
      username: dashboardUsername(t.name),
      ...(secrets.dashboardPassword !== undefined ? { password: secrets.dashboardPassword } : {}),
      accountId: t.logAccountId,
      readToken: secrets.logReadToken ?? '',
    }),
  remove: async ({ deps, tenant: t }) => deps.ports.dashboards?.remove({ tenant: t.name, username: dashboardUsername(t.name) }),
};
