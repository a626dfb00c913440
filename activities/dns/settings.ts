import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { caFile, list, url } from '../../core/site-variables.js';

/** PowerDNS Authoritative's API, and the names the tenant zones publish for the site's servers. */
export const dnsSettings = siteSettings({
  key: 'dns',
  variables: {
    SITE_PDNS_URL: url,
    SITE_PDNS_API_KEY: z.string().min(1),
    SITE_DNS_UPDATE_SERVER: z.string().min(1),
    SITE_DNS_NAMESERVERS: list.optional(),
    SITE_PDNS_CA_FILE: caFile.optional(),
  },
  read: (e, core) => ({
    apiUrl: e.SITE_PDNS_URL,
    apiKey: e.SITE_PDNS_API_KEY,
    updateServer: e.SITE_DNS_UPDATE_SERVER,
    ca: e.SITE_PDNS_CA_FILE ?? core.backendCa,
    nameservers: e.SITE_DNS_NAMESERVERS ?? [`ns1.${core.domain}.`],
  }),
});
