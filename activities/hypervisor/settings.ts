import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { caFile, url } from '../../core/site-variables.js';

/**
 * Proxmox VE's API and its token: the workloads' VMs, and the fabric (activities/network/ reads
 * the same `site.proxmox`: one cluster, one API).
 */
export const proxmoxSettings = siteSettings({
  key: 'proxmox',
  variables: {
    SITE_PROXMOX_URL: url,
    SITE_PROXMOX_TOKEN_ID: z.string().min(1),
    SITE_PROXMOX_TOKEN_SECRET: z.string().min(1),
    SITE_PROXMOX_CA_FILE: caFile.optional(),
  },
  read: (e, core) => ({
    apiUrl: e.SITE_PROXMOX_URL,
    tokenId: e.SITE_PROXMOX_TOKEN_ID,
    tokenSecret: e.SITE_PROXMOX_TOKEN_SECRET,
    ca: e.SITE_PROXMOX_CA_FILE ?? core.backendCa,
  }),
});
