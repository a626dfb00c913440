import { brokerSettings } from './settings.js';
import type { BrokerAdapter } from '../../backends/mosquitto/dynsec.js';
import { BackendError } from '../../core/backend-outcome.js';
import { type BackendArea, probe } from '../backend-area.js';
import { createDynsecAdapter } from '../../backends/mosquitto/dynsec.js';
import { createDynsecControl } from '../../backends/mosquitto/dynsec-control.js';

/** Mosquitto's dynamic security plugin: the tenants' broker accounts. */
export const brokerArea: BackendArea<'broker', BrokerAdapter | undefined, typeof brokerSettings> = {
  port: 'broker',
  settings: brokerSettings,
  bind: (site, timeoutMs, calls) => site.broker && createDynsecAdapter({ ...site.broker, timeoutMs, calls }),
  // The control connection mqtt.js keeps (and re-opens every second when lost) held a stopped worker alive.
  release: async (adapter) => adapter?.close(),
  probes: (site, timeoutMs) => {
    const b = site.broker;
    if (!b) return [];
    return [
      probe('broker', b.url, async () => {
        const control = createDynsecControl({ url: b.url, adminUser: b.adminUser, adminPassword: b.adminPassword, timeoutMs, ca: b.ca });
        try {
          const [r] = await control.run([{ command: 'getDefaultACLAccess' }]);
          if (r?.error) throw new BackendError('mosquitto', `getDefaultACLAccess: ${r.error}`);
          return 'Mosquitto dynamic security answers';
        } finally {
          await control.close();
        }
      }),
    ];
  },
};
