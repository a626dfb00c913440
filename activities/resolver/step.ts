import type { TenantStep } from '../tenant-step-module.js';

/** `resolver`: the site resolver forwards both tenant zones to the tenant DNS server. */
export const resolverStep: TenantStep<'resolver'> = {
  name: 'resolver',
  create: 2,
  removal: 4,
  appliesTo: () => true,
  ensure: ({ deps, tenant: t }) => deps.ports.resolver.ensure({ zones: [t.zone, t.reverseZone] }),
  plan: ({ deps, tenant: t }) => deps.ports.resolver.plan({ zones: [t.zone, t.reverseZone] }),
  remove: ({ deps, tenant: t }) => deps.ports.resolver.remove({ zones: [t.zone, t.reverseZone] }),
};
