import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { caFile, list, url } from '../../core/site-variables.js';

/** PowerDNS Recursor's API, and where it forwards what is not a tenant zone. */
export const resolverSettings = siteSettings({
  key: 'resolver',
  variables: {
    SITE_RECURSOR_URL: url,
    SITE_RECURSOR_API_KEY: z.string().min(1),
    SITE_RECURSOR_FORWARD_TO: list,
    SITE_RECURSOR_CA_FILE: caFile.optional(),
  },
  read: (e, core) => ({
    apiUrl: e.SITE_RECURSOR_URL,
    apiKey: e.SITE_RECURSOR_API_KEY,
    forwardTo: e.SITE_RECURSOR_FORWARD_TO,
    ca: e.SITE_RECURSOR_CA_FILE ?? core.backendCa,
  }),
});
