import { updateTenant } from '../../db/queries/tenants.js';
import { seal } from '../../db/seal.js';
import type { TenantStep, TenantStepContext } from '../tenant-step.js';
import { newLogToken } from '../tenant/secrets.js';

/**
 * The tenant's log tokens: the registry's; or, when it holds none (a restore after the registry
 * was lost, or a site that added its log store later), the ones the gateway still admits for the
 * tenant, so workloads shipping logs with them keep working; else new ones. Kept sealed.
 */
async function tokensOf({ deps, tenant: t, secrets }: TenantStepContext): Promise<{ ingestToken: string; readToken: string }> {
  if (secrets.logIngestToken && secrets.logReadToken) return { ingestToken: secrets.logIngestToken, readToken: secrets.logReadToken };
  const tokens = (await deps.ports.logStore!.heldTokens(t.name)) ?? { ingestToken: newLogToken(), readToken: newLogToken() };
  await updateTenant(deps.db, t.name, { logIngestToken: seal(deps.keys, tokens.ingestToken), logReadToken: seal(deps.keys, tokens.readToken) });
  return tokens;
}

/** `log-store`: the gateway routes that admit the tenant's ingest and read tokens to its account. */
export const logStoreStep: TenantStep<'log-store'> = {
  name: 'log-store',
  appliesTo: (site) => site.logStore !== undefined,
  async ensure(ctx) {
    const t = ctx.tenant;
    return ctx.deps.ports.logStore!.ensure({ tenant: t.name, accountId: t.logAccountId, ...(await tokensOf(ctx)) });
  },
  remove: async ({ deps, tenant: t }) => deps.ports.logStore?.remove({ tenant: t.name }),
};
