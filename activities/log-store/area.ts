import { logStoreSettings } from './settings.js';
import type { LogStorePort } from './port.js';
import { BackendError } from '../../core/backend-outcome.js';
import { BackendHttp } from '../http.js';
import { type BackendArea, probe } from '../backend-area.js';
import { createLogStoreAdapter } from './caddy.js';
import { logStoreStep } from './step.js';

const CADDY_ORIGIN_FIX =
  "Caddy refuses this Host (403 host not allowed): its admin API answers only the address it listens on; set SITE_LOG_URL to that address, or add this one to admin.origins in Caddy's config";

/** The log store's Caddy gateway: each tenant's ingest and read routes. */
export const logStoreArea: BackendArea<'logStore', LogStorePort | undefined, typeof logStoreSettings> = {
  port: 'logStore',
  settings: logStoreSettings,
  steps: [logStoreStep],
  bind: (site, timeoutMs) => site.logStore && createLogStoreAdapter({ ...site.logStore, timeoutMs }),
  probes: (site, timeoutMs) => {
    const ls = site.logStore;
    if (!ls) return [];
    return [
      probe('log-store', ls.adminUrl, async () => {
        const res = await new BackendHttp('caddy', ls.adminUrl, {}, timeoutMs, { ca: ls.ca }).call({
          path: `config/apps/http/servers/${encodeURIComponent(ls.server)}`,
          accept: [403],
        });
        // Caddy's admin API answers only the Host names it listens as (caddyserver/caddy admin.go, checkHost).
        if (res.status === 403 && /host not allowed/i.test(res.text)) throw new BackendError('caddy', CADDY_ORIGIN_FIX, false, 403);
        if (res.status === 403) throw new BackendError('caddy', `GET config -> 403 ${res.text.slice(0, 200)}`, false, 403);
        return `Caddy admin API answers; server ${ls.server} is configured`;
      }),
    ];
  },
};
