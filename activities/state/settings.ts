import { z } from 'zod';
import { siteSettings } from '../../core/site.js';
import { caFile, url } from '../../core/site-variables.js';

/** MinIO: its admin API, the state bucket, and the endpoint tenants are handed. */
export const stateSettings = siteSettings({
  key: 'state',
  variables: {
    SITE_MINIO_URL: url,
    SITE_MINIO_ACCESS_KEY: z.string().min(1),
    SITE_MINIO_SECRET_KEY: z.string().min(1),
    // The server's configured region (MINIO_SITE_REGION): requests signed for another are refused.
    SITE_MINIO_REGION: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a region name like us-east-1')
      .default('us-east-1'),
    SITE_STATE_BUCKET: z.string().min(3).default('tenant-state'),
    SITE_STATE_ENDPOINT: url.optional(),
    SITE_MINIO_CA_FILE: caFile.optional(),
  },
  read: (e, core) => ({
    adminUrl: e.SITE_MINIO_URL,
    accessKey: e.SITE_MINIO_ACCESS_KEY,
    secretKey: e.SITE_MINIO_SECRET_KEY,
    bucket: e.SITE_STATE_BUCKET,
    region: e.SITE_MINIO_REGION,
    endpoint: e.SITE_STATE_ENDPOINT ?? e.SITE_MINIO_URL,
    ca: e.SITE_MINIO_CA_FILE ?? core.backendCa,
  }),
});
