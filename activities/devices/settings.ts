import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { together } from '../../core/site-problems.js';
import { caFile, list, url } from '../../core/site-variables.js';

/** Kea DHCPv4 (optional): its control API, the device network's subnet, and each tenant's share of it. */
export const dhcpSettings = siteSettings({
  key: 'dhcp',
  variables: {
    SITE_DHCP_URL: url.optional(),
    // The other servers of a Kea High Availability pair (or more): HA shares leases, not the
    // configuration the reservations live in, so each server is written (kea-servers.ts).
    SITE_DHCP_PARTNER_URLS: list.refine((urls) => urls.every((u) => url.safeParse(u).success), 'must be URLs separated by commas').optional(),
    SITE_DHCP_SUBNET_ID: z.coerce.number().int().positive().optional(),
    SITE_DHCP_USER: z.string().optional(),
    SITE_DHCP_PASSWORD: z.string().optional(),
    // Kea 2.x: the control agent; Kea 3.x: kea-dhcp4's own HTTP control socket.
    SITE_DHCP_CONTROL: z.enum(['agent', 'server'], { message: 'must be agent (Kea 2 control agent) or server (Kea 3 kea-dhcp4 HTTP socket)' }).default('agent'),
    SITE_DEVICE_SHARE: z.coerce.number().int().positive().default(16),
    SITE_DHCP_CA_FILE: caFile.optional(),
  },
  read: (e, core) =>
    e.SITE_DHCP_URL
      ? {
          controlUrl: e.SITE_DHCP_URL,
          partnerUrls: e.SITE_DHCP_PARTNER_URLS ?? [],
          subnetId: e.SITE_DHCP_SUBNET_ID ?? 1,
          user: e.SITE_DHCP_USER,
          password: e.SITE_DHCP_PASSWORD,
          control: e.SITE_DHCP_CONTROL,
          share: e.SITE_DEVICE_SHARE,
          ca: e.SITE_DHCP_CA_FILE ?? core.backendCa,
        }
      : undefined,
  problems: (e) =>
    together(e, [
      ['SITE_DHCP_USER', ['SITE_DHCP_PASSWORD']],
      ['SITE_DHCP_PASSWORD', ['SITE_DHCP_USER']],
    ]),
});
