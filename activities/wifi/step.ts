import type { StepModule } from '../tenant-step-module.js';
import { revokeTenantWifiKeys } from './keys.js';

/** `wifi` (delete only): every Wi-Fi key of the tenant, `admission` included, is revoked. */
export const wifiStep: StepModule<'wifi'> = {
  name: 'wifi',
  appliesTo: () => true,
  remove: ({ deps, tenant: t }) => revokeTenantWifiKeys(deps, t.name),
};
