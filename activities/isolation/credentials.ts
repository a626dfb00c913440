import { ApplicationFailure } from '@temporalio/activity';
import { deriveIdentity, type TenantIdentity } from '../../core/identity.js';
import type { CanaryName } from '../../core/canaries.js';
import { getCanary } from '../../db/queries/isolation.js';
import { getTenantRow, openSecrets } from '../../db/queries/tenants.js';
import { open } from '../../db/seal.js';
import type { TenantSecrets } from '../../core/tenant-view.js';
import type { ActivityDeps } from '../deps.js';

/** What a canary presents as a tenant would: its identity and every secret it was handed. */
export interface CanaryCredentials {
  identity: TenantIdentity;
  secrets: TenantSecrets & { apiToken: string; brokerPassword: string };
}

/**
 * A canary's credentials, read from the registry in the probe's activity: they never cross
 * Temporal, so no run's history holds them, sealed or not.
 */
export async function canaryCredentials(deps: ActivityDeps, name: CanaryName): Promise<CanaryCredentials> {
  const [row, canary] = await Promise.all([getTenantRow(deps.db, name), getCanary(deps.db, name)]);
  const apiToken = open(deps.keys, canary?.apiToken);
  const brokerPassword = open(deps.keys, canary?.brokerPassword);
  if (!row || !apiToken || !brokerPassword) {
    // The check ensures its canaries first; missing here, something removed them meanwhile.
    throw ApplicationFailure.nonRetryable(`canary ${name} is not registered, or its secrets cannot be opened`, 'CanaryMissing');
  }
  return { identity: deriveIdentity(deps.site, name, row.index), secrets: { ...openSecrets(deps.keys, row), apiToken, brokerPassword } };
}
