import type { TenantStep } from '../tenant-step.js';

/** `log-store`: the gateway routes that admit the tenant's ingest and read tokens to its account. */
export const logStoreStep: TenantStep<'log-store'> = {
  name: 'log-store',
  appliesTo: (site) => site.logStore !== undefined,
  ensure: ({ deps, tenant: t, secrets }) =>
    deps.ports.logStore!.ensure({ tenant: t.name, accountId: t.logAccountId, ingestToken: secrets.logIngestToken!, readToken: secrets.logReadToken! }),
  remove: async ({ deps, tenant: t }) => deps.ports.logStore?.remove({ tenant: t.name }),
};
