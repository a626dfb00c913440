import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { together } from '../../core/site-problems.js';
import { caFile, url } from '../../core/site-variables.js';

/** Grafana (optional): its admin API and login, and the address tenants are handed. */
export const grafanaSettings = siteSettings({
  key: 'grafana',
  variables: {
    SITE_GRAFANA_URL: url.optional(),
    SITE_GRAFANA_ADMIN_USER: z.string().optional(),
    SITE_GRAFANA_ADMIN_PASSWORD: z.string().optional(),
    SITE_GRAFANA_PUBLIC_URL: url.optional(),
    SITE_GRAFANA_CA_FILE: caFile.optional(),
  },
  read: (e, core) =>
    e.SITE_GRAFANA_URL
      ? {
          url: e.SITE_GRAFANA_URL,
          adminUser: e.SITE_GRAFANA_ADMIN_USER ?? 'admin',
          adminPassword: e.SITE_GRAFANA_ADMIN_PASSWORD ?? '',
          publicUrl: e.SITE_GRAFANA_PUBLIC_URL ?? e.SITE_GRAFANA_URL,
          ca: e.SITE_GRAFANA_CA_FILE ?? core.backendCa,
        }
      : undefined,
  // Dashboards' data sources read the log store with the tenant's read token: no store, no token.
  problems: (e) => together(e, [['SITE_GRAFANA_URL', ['SITE_GRAFANA_ADMIN_PASSWORD', 'SITE_LOG_URL']]]),
});
