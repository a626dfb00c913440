import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { together } from '../../core/site-problems.js';
import { caFile, duration, url } from '../../core/site-variables.js';

/** The log store's gateway (optional): its admin API, the store behind it, and the endpoint tenants are handed. */
export const logStoreSettings = siteSettings({
  key: 'logStore',
  variables: {
    SITE_LOG_URL: url.optional(),
    SITE_LOG_UPSTREAM: z.string().min(1).optional(),
    SITE_LOG_SERVER: z.string().min(1).default('logs'),
    SITE_LOG_ENDPOINT: url.optional(),
    SITE_LOG_CA_FILE: caFile.optional(),
    /**
     * How often each worker looks for tenants whose routes the gateway lost (a `systemctl reload
     * caddy` loads the Caddyfile and drops every route written through the admin API) and writes
     * them back: the bound on how long a tenant's tokens are refused after a reload.
     */
    SITE_LOG_ROUTE_CHECK_INTERVAL: duration('30s'),
  },
  read: (e, core) =>
    e.SITE_LOG_URL
      ? {
          adminUrl: e.SITE_LOG_URL,
          server: e.SITE_LOG_SERVER,
          upstream: e.SITE_LOG_UPSTREAM ?? '127.0.0.1:9428',
          endpoint: e.SITE_LOG_ENDPOINT ?? e.SITE_LOG_URL,
          ca: e.SITE_LOG_CA_FILE ?? core.backendCa,
          routeCheckMs: e.SITE_LOG_ROUTE_CHECK_INTERVAL,
        }
      : undefined,
  // SITE_LOG_URL is the gateway's admin API: tenants must be handed where they ship and read logs.
  problems: (e) => together(e, [['SITE_LOG_URL', ['SITE_LOG_ENDPOINT']]]),
});
