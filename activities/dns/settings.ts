import { isIP } from 'node:net';
import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { caFile, list, url } from '../../core/site-variables.js';
import { normalizeTarget } from '../../backends/recursor/targets.js';
import { absoluteName } from '../../backends/powerdns/names.js';

/** `ip` or `ip:port` (`[ipv6]:port`) each, as PowerDNS's also-notify takes them; port 53 when left out. */
const secondaries = list.transform((items, ctx) =>
  items.flatMap((item) => {
    try {
      const target = normalizeTarget(item);
      if (isIP(hostOf(target))) return [target];
    } catch {
      // refused below
    }
    ctx.addIssue({ code: 'custom', message: `must be IP addresses, each with an optional port (ip:port, [ipv6]:port): ${item}` });
    return [];
  }),
);

/** The address of a normalized target (`ip:port` or `[ipv6]:port`). */
export function hostOf(target: string): string {
  return target.startsWith('[') ? target.slice(1, target.indexOf(']')) : target.slice(0, target.lastIndexOf(':'));
}

/** PowerDNS Authoritative's API, and the names the tenant zones publish for the site's servers. */
export const dnsSettings = siteSettings({
  key: 'dns',
  variables: {
    SITE_PDNS_URL: url,
    SITE_PDNS_API_KEY: z.string().min(1),
    SITE_DNS_UPDATE_SERVER: z.string().min(1),
    SITE_DNS_NAMESERVERS: list.optional(),
    /**
     * The secondary name servers that serve the tenant zones beside PowerDNS: they consume the
     * catalog zone (docs/decisions.md, "Tenant zones reach the secondaries").
     */
    SITE_DNS_SECONDARIES: secondaries.optional(),
    SITE_DNS_CATALOG: z
      .string()
      .regex(/^([a-z0-9-]+\.)+[a-z0-9-]+\.?$/i, 'must be a DNS zone name like catalog.lab.example.net')
      .optional(),
    SITE_PDNS_CA_FILE: caFile.optional(),
  },
  read: (e, core) => {
    const secondaries = e.SITE_DNS_SECONDARIES ?? [];
    return {
      apiUrl: e.SITE_PDNS_URL,
      apiKey: e.SITE_PDNS_API_KEY,
      updateServer: e.SITE_DNS_UPDATE_SERVER,
      ca: e.SITE_PDNS_CA_FILE ?? core.backendCa,
      nameservers: e.SITE_DNS_NAMESERVERS ?? [`ns1.${core.domain}.`],
      secondaries,
      // Only a site with secondaries has a catalog: without them zones stay Native, as before.
      catalog: secondaries.length > 0 ? absoluteName(e.SITE_DNS_CATALOG ?? `catalog.${core.domain}`) : undefined,
    };
  },
});
