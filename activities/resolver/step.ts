import type { StepModule } from '../tenant-step-module.js';

/** `resolver`: the site resolver forwards both tenant zones to the tenant DNS server. */
export const resolverStep: StepModule<'resolver'> = {
  name: 'resolver',
  appliesTo: () => true,
  ensure: ({ deps, tenant: t }) => deps.ports.resolver.ensure({ zones: [t.zone, t.reverseZone] }),
  plan: ({ deps, tenant: t }) => deps.ports.resolver.plan({ zones: [t.zone, t.reverseZone] }),
  remove: ({ deps, tenant: t }) => deps.ports.resolver.remove({ zones: [t.zone, t.reverseZone] }),
};
