import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { together } from '../../core/site-problems.js';
import { caFile } from '../../core/site-variables.js';

/** Mosquitto (optional): the broker and the dynamic-security admin login. */
export const brokerSettings = siteSettings({
  key: 'broker',
  variables: {
    SITE_BROKER_URL: z
      .string()
      .regex(/^mqtts?:\/\//, 'must be an mqtt:// or mqtts:// URL')
      .optional(),
    SITE_BROKER_ADMIN_USER: z.string().optional(),
    SITE_BROKER_ADMIN_PASSWORD: z.string().optional(),
    SITE_BROKER_CA_FILE: caFile.optional(),
  },
  read: (e, core) =>
    e.SITE_BROKER_URL
      ? {
          url: e.SITE_BROKER_URL,
          adminUser: e.SITE_BROKER_ADMIN_USER ?? 'admin',
          adminPassword: e.SITE_BROKER_ADMIN_PASSWORD ?? '',
          ca: e.SITE_BROKER_CA_FILE ?? core.backendCa,
        }
      : undefined,
  problems: (e) => together(e, [['SITE_BROKER_URL', ['SITE_BROKER_ADMIN_PASSWORD']]]),
});
