import type { StepModule } from '../tenant-step-module.js';

/** `state`: the tenant's state-store user and the policy that confines it to its key prefix. */
export const stateStep: StepModule<'state'> = {
  name: 'state',
  appliesTo: () => true,
  ensure: ({ deps, tenant: t, secrets }) =>
    deps.ports.state.ensure({ tenant: t.name, accessKey: t.stateAccessKey, secretKey: secrets.stateSecret!, prefix: t.stateKeyPrefix }),
  plan: ({ deps, tenant: t, secrets }) =>
    deps.ports.state.plan({ tenant: t.name, accessKey: t.stateAccessKey, secretKey: secrets.stateSecret!, prefix: t.stateKeyPrefix }),
  remove: ({ deps, tenant: t }) => deps.ports.state.remove({ tenant: t.name, accessKey: t.stateAccessKey }),
};
