import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/env.js';
import { workerVersion } from './deployment.js';

const required = { OPERATOR_TOKEN: 'op-token-0123456789abcdef', DATABASE_URL: 'postgres://svc:pw@db.internal:5432/registry' };

describe("the worker's version (docs/upgrading.md)", () => {
  it('is the build of the commit /version names, in the deployment tenant-provisioning', () => {
    expect(workerVersion(loadConfig(required), () => '3f2a9c1')).toEqual({ deploymentName: 'tenant-provisioning', buildId: '3f2a9c1' });
  });

  it('takes the deployment and the build id the configuration names', () => {
    const config = loadConfig({ ...required, TEMPORAL_WORKER_DEPLOYMENT: 'site-b', TEMPORAL_WORKER_BUILD_ID: 'release-0.15.0' });
    expect(workerVersion(config, () => '3f2a9c1')).toEqual({ deploymentName: 'site-b', buildId: 'release-0.15.0' });
  });

  it('is refused, naming the variable, when the build does not know its commit', () => {
    expect(() => workerVersion(loadConfig(required), () => 'unknown')).toThrow(ConfigError);
    expect(() => workerVersion(loadConfig(required), () => 'unknown')).toThrow(/^TEMPORAL_WORKER_BUILD_ID is required/);
  });
});
