import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { CANARY_BROKER_ACCOUNT, CANARY_BROKER_TOPICS, CANARY_NAMES, canaryWifiClasses, type CanaryName } from '../../core/canaries.js';
import { mintTenantToken } from '../../core/credentials/api-token.js';
import { mintBrokerPassword } from '../../core/credentials/broker-password.js';
import { attemptBrokerAccountEnsure, type BrokerAccountRequest } from '../../contracts/broker-account.js';
import { runIds } from '../../contracts/ids.js';
import type { CanaryPair, IsolationBackend } from '../../contracts/isolation-check.js';
import { attemptTenantCreate, type CreateRequest } from '../../contracts/tenant.js';
import { getCanary, saveCanary } from '../../db/queries/isolation.js';
import { getTenantRow, openSecrets } from '../../db/queries/tenants.js';
import { getBrokerAccount } from '../../db/queries/broker-accounts.js';
import { open, openValue, seal, sealValue } from '../../db/seal.js';
import type { ActivityDeps } from '../deps.js';
import { ensureCanaryCertificate, ensureCanaryRecord, ensureCanaryWifiKey } from './canary-objects.js';
import { CANARY_ACTOR, deliver } from './deliver.js';

/**
 * `ensureCanaries`: the canary pair made ready before a check probes it, through the runs every
 * tenant and object is made by (`tenant-create/<canary>`, `broker-account/<canary>/probe`,
 * `record-put/<canary>/probe`, `wifi-key/<canary>/probe`), started here as the API starts them: an
 * update-with-start on the worker's own client; its certificate through the issue a tenant's PUT
 * takes. So the canaries are real tenants, built by the steps and settings every tenant's are. A canary's
 * secrets a tenant's row keeps only as a hash (its API token, its broker password) are kept sealed
 * in `canaries`. Not a step: it writes no backend itself, its runs do.
 *
 * A canary that is ready is left as it is: re-ensuring its objects before each check would repair
 * the very drift the check is there to find (a group or role a site's admin bound to every broker
 * client, an update ACL widened on every zone).
 */
export async function ensureCanaries(deps: ActivityDeps): Promise<CanaryPair> {
  const client = Context.current().client;
  const taskQueue = Context.current().info.taskQueue;
  const wifiClasses = canaryWifiClassesAt(deps);
  const runs = { client, taskQueue };
  for (const name of CANARY_NAMES) {
    await ensureCanaryTenant(deps, client, taskQueue, name);
    if (deps.site.broker) await ensureCanaryBrokerAccount(deps, client, taskQueue, name);
    await orLeftBroken(deps, `canary ${name}'s record`, () => ensureCanaryRecord(deps, runs, name));
    if (wifiClasses) await orLeftBroken(deps, `canary ${name}'s Wi-Fi key`, () => ensureCanaryWifiKey(deps, runs, name, wifiClasses[name]));
    await orLeftBroken(deps, `canary ${name}'s certificate`, () => ensureCanaryCertificate(deps, name));
  }
  const all: [IsolationBackend, boolean][] = [
    ['api', deps.site.apiUrl !== undefined],
    ['dns', true],
    ['state', true],
    ['broker', deps.site.broker !== undefined],
    ['log-store', deps.site.logStore !== undefined],
    ['dashboards', deps.site.grafana !== undefined],
    // A controller with no trust class on a Wi-Fi network holds no tenant key to probe.
    ['wifi', wifiClasses !== undefined],
    ['certificates', deps.ports.ca !== undefined],
  ];
  return { backends: all.filter(([, on]) => on).map(([b]) => b), skipped: all.filter(([, on]) => !on).map(([b]) => b) };
}

/** The canaries' Wi-Fi key classes at this site: none without a controller or a class with a Wi-Fi network. */
export function canaryWifiClassesAt(deps: ActivityDeps): Record<CanaryName, string> | undefined {
  return deps.ports.wifi ? canaryWifiClasses(deps.site.trustClasses) : undefined;
}

/**
 * A canary object its run could not make (a WLAN missing on the controller, the CA refusing) is no
 * reason to probe nothing: the check goes on, and that backend's probes find the object missing or
 * refused and say so (`broken`). The next check delivers its run again.
 */
async function orLeftBroken(deps: ActivityDeps, what: string, make: () => Promise<void>): Promise<void> {
  try {
    await make();
  } catch (err) {
    // The failure names the object and its step, never a secret (canary-objects.ts).
    deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, `${what} could not be made; its backend's probes report it broken`);
  }
}

/**
 * Created on first use; a create that failed resumes; a ready canary whose token the check no
 * longer holds (its row in `canaries` lost) gets a new one through a restore with its own secrets.
 */
async function ensureCanaryTenant(deps: ActivityDeps, client: Client, taskQueue: string, name: CanaryName): Promise<void> {
  const { db, keys, site } = deps;
  const [tenant, canary] = await Promise.all([getTenantRow(db, name), getCanary(db, name)]);
  if (tenant?.status === 'ready' && open(keys, canary?.apiToken)) return;
  const stored = tenant ? openSecrets(keys, tenant) : {};
  const restore =
    tenant?.status === 'ready' && stored.tsigSecret && stored.stateSecret
      ? sealValue(keys, { tsigSecret: stored.tsigSecret, stateSecret: stored.stateSecret, apiToken: mintTenantToken(site.tokenKey, name) })
      : undefined;
  const request: CreateRequest = { name, actor: CANARY_ACTOR, ...(restore ? { restore } : {}) };
  const answer = await deliver(client, taskQueue, 'tenantCreate', runIds.tenantCreate(name), name, attemptTenantCreate, request);
  if (answer.kind !== 'ready') {
    const why = answer.kind === 'failed' ? `its ${answer.step} step failed` : answer.message;
    throw ApplicationFailure.create({ type: 'CanaryNotReady', message: `canary ${name} could not be made ready: ${why}` });
  }
  const apiToken = openValue(keys, answer.secrets)?.apiToken;
  if (!apiToken) throw ApplicationFailure.nonRetryable(`canary ${name}'s create answered no API token`, 'CanaryNotReady');
  await saveCanary(db, { name, apiToken: seal(keys, apiToken), brokerPassword: canary?.brokerPassword ?? seal(keys, mintBrokerPassword()) });
}

/** The canary's broker account, made with the password the check keeps when the registry holds none. */
async function ensureCanaryBrokerAccount(deps: ActivityDeps, client: Client, taskQueue: string, name: CanaryName): Promise<void> {
  if (await getBrokerAccount(deps.db, name, CANARY_BROKER_ACCOUNT)) return;
  const password = open(deps.keys, (await getCanary(deps.db, name))?.brokerPassword);
  if (!password) throw ApplicationFailure.nonRetryable(`canary ${name}'s broker password cannot be opened`, 'CanaryNotReady');
  const topics = `${name}/${CANARY_BROKER_TOPICS}`;
  const request: BrokerAccountRequest = {
    tenant: name,
    name: CANARY_BROKER_ACCOUNT,
    publish: [topics],
    subscribe: [topics],
    password: sealValue(deps.keys, password),
  };
  const workflowId = runIds.brokerAccountEnsure(name, CANARY_BROKER_ACCOUNT);
  const answer = await deliver(client, taskQueue, 'brokerAccountEnsure', workflowId, name, attemptBrokerAccountEnsure, request, {
    tenant: name,
    name: CANARY_BROKER_ACCOUNT,
  });
  if (answer.kind !== 'done') {
    const why = answer.kind === 'failed' ? 'its broker step failed' : answer.message;
    throw ApplicationFailure.create({ type: 'CanaryNotReady', message: `canary ${name}'s broker account could not be made: ${why}` });
  }
}
