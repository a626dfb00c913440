import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { together } from '../../core/site-problems.js';

/** The tenant service CA (optional): its certificate, key and chain, as PEM. */
export const caSettings = siteSettings({
  key: 'ca',
  variables: {
    SITE_CA_CERT: z.string().includes('BEGIN CERTIFICATE', { message: 'must be a PEM certificate' }).optional(),
    SITE_CA_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }).optional(),
    SITE_CA_CHAIN: z.string().optional(),
  },
  read: (e) => (e.SITE_CA_CERT && e.SITE_CA_KEY ? { certPem: e.SITE_CA_CERT, keyPem: e.SITE_CA_KEY, chainPem: e.SITE_CA_CHAIN } : undefined),
  problems: (e) =>
    together(e, [
      ['SITE_CA_CERT', ['SITE_CA_KEY']],
      ['SITE_CA_KEY', ['SITE_CA_CERT']],
    ]),
});
