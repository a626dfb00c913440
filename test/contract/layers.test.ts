import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layer rule in eslint.config.js (docs/architecture.md): an upward import fails `npm run lint`,
 * a downward one passes. Each row lints one line of code as if it were a file of that layer.
 */
const root = join(import.meta.dirname, '..', '..');
// The project's own config with the type-aware rules off (the layer rule reads only the import
// syntax): each row then parses one line instead of loading the program's types (43 s -> seconds).
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport type Probe = unknown;\n`, { filePath: join(root, file) });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

const refused = [
  { file: 'core/identity.ts', code: "import { Registry } from '../db/registry.js';", why: 'core imports db' },
  { file: 'core/identity.ts', code: "import type { Activities } from '../activities/index.js';", why: 'core imports activities, even a type' },
  { file: 'db/queries/tenants.ts', code: "import { createActivities } from '../../activities/index.js';", why: 'db imports activities' },
  { file: 'db/registry.ts', code: "import { loadConfig } from '../apps/config/env.js';", why: 'db imports apps' },
  { file: 'activities/tenant/register.ts', code: "import { loadConfig } from '../../apps/config/env.js';", why: 'activities import apps' },
  { file: 'activities/broker/accounts.ts', code: "import { serveRun } from '../../workflows/attempts.js';", why: 'activities import workflow code' },
  { file: 'activities/broker/accounts.ts', code: "import type { StepRun } from '../../workflows/run-step.js';", why: 'activities import a workflow type' },
  { file: 'contracts/tenant.ts', code: "import type { Activities } from '../activities/index.js';", why: 'contracts import activities, even a type' },
  { file: 'contracts/tenant.ts', code: "import { serveRun } from '../workflows/attempts.js';", why: 'contracts import workflows' },
  { file: 'contracts/tenant.ts', code: "import type { TenantRow } from '../db/schema/index.js';", why: 'contracts import db, even a type' },
  { file: 'core/step-table.ts', code: "import type { CreateRequest } from '../contracts/tenant.js';", why: 'core imports contracts' },
  { file: 'db/queries/tenants.ts', code: "import type { CreateRequest } from '../../contracts/tenant.js';", why: 'db imports contracts' },
  {
    file: 'apps/api/operations/certificate.ts',
    code: "import { createIssuer } from '../../../activities/certificates/issuer.js';",
    why: 'the API imports activity code',
  },
  {
    file: 'apps/api/routes/broker-accounts/create.ts',
    code: "import type { BackendPorts } from '../../../../activities/backend-areas.js';",
    why: 'the API imports activities, even a type',
  },
  { file: 'workflows/tenant-create.ts', code: "import { createActivities } from '../activities/index.js';", why: 'workflows import activity code' },
  { file: 'workflows/tenant-create.ts', code: "import { Registry } from '../db/registry.js';", why: 'workflows import db' },
  { file: 'temporal/schedules.ts', code: "import { Registry } from '../db/registry.js';", why: 'temporal imports db' },
  { file: 'temporal/schedules.ts', code: "import { reconcileSweep } from '../workflows/reconcile-sweep.js';", why: 'temporal imports workflows' },
  { file: 'apps/worker/main.ts', code: "import { onLastPortOrAny } from '../lab/last-port.js';", why: 'the worker imports the lab' },
  { file: 'apps/api/routes/tenants/create.ts', code: "import { startKea } from '../../../lab/servers/kea.js';", why: 'the API imports the lab' },
  { file: 'apps/config/env.ts', code: "import { LAB_DOMAIN } from '../lab/backends.js';", why: 'the configuration imports the lab' },
];

const allowed = [
  { file: 'db/queries/tenants.ts', code: "import type { TenantRecord } from '../../core/tenant-view.js';", why: 'db imports core' },
  { file: 'activities/tenant/register.ts', code: "import { listTenantRecords } from '../../db/queries/tenants.js';", why: 'activities import db' },
  {
    file: 'activities/broker/accounts.ts',
    code: "import type { BrokerAccountRequest } from '../../contracts/broker-account.js';",
    why: 'activities import a contract type',
  },
  {
    file: 'workflows/tenant-create.ts',
    code: "import type { Activities } from '../activities/index.js';",
    why: 'workflows import the activity types they proxy',
  },
  {
    file: 'activities/broker/accounts.ts',
    code: "import { attemptBrokerAccountEnsure } from '../../contracts/broker-account.js';",
    why: 'activities import contract code',
  },
  { file: 'contracts/tenant.ts', code: "import type { StepName } from '../core/step-table.js';", why: 'contracts import core' },
  { file: 'workflows/tenant-create.ts', code: "import { attemptTenantCreate } from '../contracts/tenant.js';", why: 'workflows import the contract' },
  { file: 'temporal/schedules.ts', code: "import { runIds } from '../contracts/ids.js';", why: 'temporal imports the contract' },
  { file: 'apps/api/app.ts', code: "import { Registry } from '../../db/registry.js';", why: 'apps import anything below' },
  { file: 'apps/api/operations/device.ts', code: "import { viewDevice } from '../../../db/views/device.js';", why: 'the API imports db views and core' },
  {
    file: 'apps/config/ca.ts',
    code: "import { siteIssuer } from '../../activities/certificates/site-issuer.js';",
    why: 'apps/config binds an adapter of activities to its port',
  },
  { file: 'apps/worker/worker.ts', code: "import { createIssuer } from '../../activities/certificates/issuer.js';", why: 'the worker imports activities' },
  { file: 'apps/worker/main.ts', code: "import { onSomePort } from '../../core/listen-port.js';", why: 'the worker imports core' },
  { file: 'apps/lab/main.ts', code: "import { startKea } from './servers/kea.js';", why: 'the lab imports itself' },
];
/**
 * backends/ and the areas of activities/ (issue 46, item 4): a backend imports its own folder,
 * the shared client (backends/http/) and core/, nothing of Temporal, and only activities/ and
 * apps/ import it; an area reaches another only through that area's index.ts.
 */
const backendsAndAreas: ['refuses' | 'allows', file: string, code: string, why: string][] = [
  ['refuses', 'core/identity.ts', "import { BackendHttp } from '../backends/http/client.js';", 'core imports backends'],
  ['refuses', 'db/queries/tenants.ts', "import { PveApi } from '../../backends/proxmox/pve-api.js';", 'db imports backends'],
  ['refuses', 'workflows/tenant-create.ts', "import type { VmSpec } from '../backends/proxmox/qemu.js';", 'workflows import backends, even a type'],
  ['refuses', 'temporal/schedules.ts', "import { BackendHttp } from '../backends/http/client.js';", 'temporal imports backends'],
  ['refuses', 'apps/api/routes/tenants/create.ts', "import { tenantDnsNames } from '../../../../backends/powerdns/names.js';", 'the API imports backends'],
  ['refuses', 'backends/proxmox/qemu.ts', "import type { ActivityDeps } from '../../activities/deps.js';", 'a backend imports activities, even a type'],
  ['refuses', 'backends/powerdns/powerdns.ts', "import { Registry } from '../../db/registry.js';", 'a backend imports db'],
  ['refuses', 'backends/kea/kea.ts', "import type { ReserveInput } from '../../contracts/device-address.js';", 'a backend imports contracts'],
  ['refuses', 'backends/unifi/unifi.ts', "import { Context } from '@temporalio/activity';", 'a backend imports Temporal'],
  ['refuses', 'backends/grafana/grafana.ts', "import { selectHeaderName } from '../caddy/routes.js';", "a backend imports another product's"],
  ['refuses', 'backends/http/client.ts', "import { PveApi } from '../proxmox/pve-api.js';", 'the shared client imports a product'],
  ['refuses', 'activities/hypervisor/area.ts', "import { networkStep } from '../network/step.js';", "an area imports another area's internals"],
  ['refuses', 'activities/workloads/activities.ts', "import type { DnsPort } from '../dns/port.js';", "an area imports another area's internals, even a type"],
  ['refuses', 'activities/dns/step.ts', "import { republishNames } from '../records/publish.js';", "an area imports another area's module beside its index"],
  ['allows', 'backends/proxmox/qemu.ts', "import { PveApi } from './pve-api.js';", 'a backend imports its own folder'],
  ['allows', 'backends/proxmox/pve-api.ts', "import { BackendHttp } from '../http/client.js';", 'a backend imports the shared client'],
  ['allows', 'backends/kea/kea.ts', "import { BackendError } from '../../core/backend-outcome.js';", 'a backend imports core'],
  ['allows', 'activities/hypervisor/area.ts', "import { PveApi } from '../../backends/proxmox/pve-api.js';", 'an area imports backends'],
  ['allows', 'activities/workloads/activities.ts', "import { publishName } from '../records/index.js';", "an area imports another area's index"],
  ['allows', 'activities/dns/step.ts', "import { asBackendStep } from '../step-failure.js';", 'an area imports a shared activity module'],
  ['allows', 'activities/tenant-steps.ts', "import { dnsStep } from './dns/step.js';", "the areas' list imports their modules"],
  ['allows', 'apps/lab/simulators/minio/iam.ts', "import { tenantPolicy } from '../../../../backends/minio/policy.js';", 'the lab imports backends'],
];

describe('layer rule', () => {
  for (const row of refused) {
    it(`refuses: ${row.why}`, { timeout: 60_000 }, async () => {
      expect(await layerErrors(row.file, row.code)).toEqual([expect.stringMatching(/layers: /)]);
    });
  }
  for (const row of allowed) {
    it(`allows: ${row.why}`, { timeout: 60_000 }, async () => {
      expect(await layerErrors(row.file, row.code)).toEqual([]);
    });
  }
  for (const [verdict, file, code, why] of backendsAndAreas) {
    it(`${verdict}: ${why}`, { timeout: 60_000 }, async () => {
      expect(await layerErrors(file, code)).toEqual(verdict === 'refuses' ? [expect.stringMatching(/layers: /)] : []);
    });
  }
});
