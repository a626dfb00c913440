import { logStoreSettings } from './settings.js';
import type { LogStorePort } from './port.js';
import { type BackendArea, probe } from '../backend-area.js';
import { createLogStoreAdapter } from '../../backends/caddy/caddy.js';
import { checkGateway } from './check.js';

/** The log store's Caddy gateway: each tenant's ingest and read routes. */
export const logStoreArea: BackendArea<'logStore', LogStorePort | undefined, typeof logStoreSettings> = {
  port: 'logStore',
  settings: logStoreSettings,
  bind: (site, timeoutMs, calls) => site.logStore && createLogStoreAdapter({ ...site.logStore, timeoutMs, calls }),
  probes: (site, timeoutMs) => (site.logStore ? [probe('log-store', site.logStore.adminUrl, () => checkGateway(site.logStore!, timeoutMs))] : []),
};
