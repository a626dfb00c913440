import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { BackendError } from '../../core/backend-outcome.js';
import { stateAccessKey } from '../../core/identity.js';
import { loadConfig } from '../../apps/config/env.js';
import { createMinioSimulator, type MinioSimulator } from '../../apps/lab/simulators/minio/index.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { bindPorts } from '../../activities/backend-areas.js';
import { siteEnv } from '../support/site-env.js';

/**
 * MinIO configured with a region (MINIO_SITE_REGION) refuses a request signed for any other:
 * minio cmd/signature-v4-utils.go isValidRegion (`reqRegion == confRegion` once a region is set),
 * answered as AuthorizationHeaderMalformed "the region is wrong; expecting '<region>'". The site
 * setting SITE_MINIO_REGION reaches the adapter's signing (issue 17, item 5).
 */
let minio: MinioSimulator;
let server: RunningServer;
const root = { rootAccessKey: 'siteadmin', rootSecretKey: randomBytes(16).toString('hex') };
const baseEnv = (): Record<string, string> => ({
  OPERATOR_TOKEN: 'op-region-test-0123456789',
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/none',
  ...siteEnv({ SITE_MINIO_URL: server.url, SITE_MINIO_ACCESS_KEY: root.rootAccessKey, SITE_MINIO_SECRET_KEY: root.rootSecretKey }),
});
const spec = (tenant: string) => ({ tenant, accessKey: stateAccessKey(tenant), secretKey: randomBytes(12).toString('hex'), prefix: `${tenant}/` });

beforeAll(async () => {
  minio = createMinioSimulator({ ...root, buckets: ['tenant-state'], region: 'eu-central-1' });
  server = await serveApp(minio.app);
});
afterAll(async () => server?.close());

describe('a MinIO with a configured region', () => {
  it('refuses requests signed for us-east-1 (no SITE_MINIO_REGION)', async () => {
    const ports = bindPorts(loadConfig(baseEnv()).site!);
    const err = (await ports.state.ensure(spec('acme')).catch((e: unknown) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    expect(err.detail).toMatch(/AuthorizationHeaderMalformed|expecting 'eu-central-1'/);
    expect(minio.state.users.has(stateAccessKey('acme'))).toBe(false);
  });

  it('works with SITE_MINIO_REGION set to it', async () => {
    const ports = bindPorts(loadConfig({ ...baseEnv(), SITE_MINIO_REGION: 'eu-central-1' }).site!);
    expect((await ports.state.ensure(spec('acme')))[0]?.result).toBe('created');
    expect(minio.state.users.has(stateAccessKey('acme'))).toBe(true);
  });
});
