import { ApplicationFailure } from '@temporalio/activity';
import { getTenantRow, insertTenant, isTenantTokenRevoked, openSecrets, revokeTenantToken, takenIndexes, updateTenant } from '../../db/queries/tenants.js';
import { openValue, seal, sealValue } from '../../db/seal.js';
import type { Sealed } from '../../core/sealed.js';
import type { StepName } from '../../core/step-table.js';
import type { CreateRequest, Refusal, RestoreSecrets } from '../../contracts/tenant.js';
import { createStepsFor } from '../tenant-steps.js';
import { mintTenantToken, REVOKED_TOKEN_REFUSAL, tokenHash } from '../../core/credentials/api-token.js';
import type { ActivityDeps } from '../deps.js';
import { chooseIndex } from '../../core/identity.js';
import { newDashboardPassword, newLogToken, newStateSecret, newTsigSecret } from '../secrets.js';
import { holdsDeviceAddresses } from '../../db/queries/device-addresses.js';
import { LOCK_SPACE, withLocks } from '../../db/queries/locks.js';
import type { Db } from '../../db/registry.js';
import type { Outcome, TenantSecrets } from '../../core/tenant-view.js';

/**
 * `secrets` are the ones this attempt issued or was given, sealed: the workflow hands them to the
 * API for its answer and cannot read them. `fabric` is asked for when the name is new: its index is
 * chosen from the indexes the fabric carries, which the workflow reads in an activity of its own.
 */
export type Registration =
  { kind: 'proceed'; name: string; index: number; outcome: Outcome; secrets: Sealed<TenantSecrets>; steps: StepName[] } | { kind: 'needs-fabric' } | Refusal;

/** A registration attempt; `fabric` is the fabric's indexes with their zones, once read. */
export interface RegisterInput {
  request: CreateRequest;
  fabric?: [number, string][];
}

type Request = Omit<CreateRequest, 'restore'> & { restore?: RestoreSecrets };

const refuse = (error: Refusal['error'], message: string): Refusal => ({ kind: 'refused', error, message });

/**
 * The first activity of every create attempt: registers a new name (choosing its index and
 * minting its secrets) or picks up a registered one (resume, reconcile with supplied secrets).
 * A new name's index is chosen and inserted under the site's index lock, so creates of different
 * names never lose their choice to each other.
 */
export function registerActivity(deps: ActivityDeps) {
  return {
    prepareTenant: (input: RegisterInput): Promise<Registration> => prepareTenant(deps, input),
  };
}

async function prepareTenant(deps: ActivityDeps, input: RegisterInput): Promise<Registration> {
  const { db, keys } = deps;
  const { restore, ...rest } = input.request;
  const opened = openValue(keys, restore);
  if (restore !== undefined && !opened) return refuse('conflict', 'the supplied secrets could not be read; send them again');
  const req: Request = { ...rest, ...(opened ? { restore: opened } : {}) };
  // Checked again here, under the tenant's lease: a delete that finished after the route's check
  // revoked the token, and a restore must not bring the deleted tenant back (issue 27).
  if (opened && (await isTenantTokenRevoked(db, tokenHash(opened.apiToken)))) return refuse('bad_request', REVOKED_TOKEN_REFUSAL);
  for (let attempt = 0; attempt < 8; attempt++) {
    const row = await getTenantRow(db, req.name);
    const result = row ? await existing(deps, req, row) : await fresh(deps, req, input.fabric);
    if (result) return result;
  }
  throw ApplicationFailure.retryable('registry contention while choosing an index', 'RegistryContention');
}

async function existing(deps: ActivityDeps, req: Request, row: NonNullable<Awaited<ReturnType<typeof getTenantRow>>>): Promise<Registration> {
  const { db, keys, site } = deps;
  if (row.status === 'deleting') return refuse('conflict', 'tenant is being deleted; repeat the delete first');
  if (row.status === 'ready' && !req.restore) {
    return refuse(
      'conflict',
      `tenant already exists; to reconcile it send tsig_secret, state_secret and api_token, or have the operator call POST /v1/tenants/${req.name}/reconcile`,
    );
  }
  const stored = openSecrets(keys, row);
  if (!req.restore && (!stored.tsigSecret || !stored.stateSecret)) {
    return refuse('conflict', 'stored secrets are unreadable; send tsig_secret, state_secret and api_token');
  }
  // Without supplied secrets a resume issues a new API token: the old one is stored only as a hash.
  const apiToken = req.restore?.apiToken ?? mintTenantToken(site.tokenKey, row.name);
  const secrets: TenantSecrets = {
    tsigSecret: req.restore?.tsigSecret ?? stored.tsigSecret,
    stateSecret: req.restore?.stateSecret ?? stored.stateSecret,
    apiToken,
    // Never minted here: a restore's log-store and dashboards steps adopt what those backends
    // hold, and mint only what they lack (activities/log-store/step.ts, dashboards/step.ts).
    logIngestToken: stored.logIngestToken,
    logReadToken: stored.logReadToken,
    dashboardPassword: stored.dashboardPassword,
  };
  const columns = sealedColumns(deps, secrets);
  // One token at a time: the one replaced is revoked for good, even should the registry row go.
  if (row.apiTokenHash !== columns.apiTokenHash) await revokeTenantToken(db, row.name, row.apiTokenHash);
  await updateTenant(db, row.name, columns);
  return {
    kind: 'proceed',
    name: row.name,
    index: row.index,
    outcome: row.status === 'ready' ? 'reconciled' : 'resumed',
    secrets: sealValue(keys, secrets),
    steps: createStepsFor(site, { holdsDeviceAddresses: await holdsDeviceAddresses(db, row.name) }),
  };
}

function logAndDashboardSecrets(deps: ActivityDeps): TenantSecrets {
  return {
    ...(deps.site.logStore ? { logIngestToken: newLogToken(), logReadToken: newLogToken() } : {}),
    ...(deps.site.grafana ? { dashboardPassword: newDashboardPassword() } : {}),
  };
}

function sealedColumns(deps: ActivityDeps, s: TenantSecrets) {
  const { keys } = deps;
  const sealed = (v: string | undefined) => (v === undefined ? null : seal(keys, v));
  return {
    tsigSecret: seal(keys, s.tsigSecret!),
    stateSecret: seal(keys, s.stateSecret!),
    apiTokenHash: s.apiToken ? tokenHash(s.apiToken) : null,
    logIngestToken: sealed(s.logIngestToken),
    logReadToken: sealed(s.logReadToken),
    dashboardPassword: sealed(s.dashboardPassword),
  };
}

async function fresh(deps: ActivityDeps, req: Request, fabric: [number, string][] | undefined): Promise<Registration | undefined> {
  const { db } = deps;
  if (!fabric) return { kind: 'needs-fabric' };
  // One new tenant's index chosen and inserted at a time, site-wide (docs/decisions.md): a choice
  // from a registry read a concurrent insert made stale lost, and the losers' rounds were bounded.
  return withLocks(db, async (tx, lock) => {
    await lock(LOCK_SPACE.tenantIndex, 'site');
    return insertFresh(deps, tx as unknown as Db, req, fabric);
  });
}

async function insertFresh(deps: ActivityDeps, db: Db, req: Request, fabric: [number, string][]): Promise<Registration | undefined> {
  const { keys, site } = deps;
  const registry = await takenIndexes(db);
  const taken = new Set<number>(registry.keys());
  let fabricIndexOfName: number | undefined;
  for (const [index, zone] of fabric) {
    if (zone === req.name) fabricIndexOfName ??= index;
    else taken.add(index);
  }
  const index = chooseIndex({ requested: req.requestedIndex, fabricIndexOfName, taken });
  if (index === undefined) return refuse('conflict', 'no free tenant index');
  const restoring = req.restore !== undefined || req.requestedIndex !== undefined;
  const outcome: Outcome = !restoring ? 'created' : req.requestedIndex === undefined || req.requestedIndex === index ? 'restored' : 'reissued';
  const secrets: TenantSecrets = {
    tsigSecret: req.restore?.tsigSecret ?? newTsigSecret(),
    stateSecret: req.restore?.stateSecret ?? newStateSecret(),
    apiToken: req.restore?.apiToken ?? mintTenantToken(site.tokenKey, req.name),
    // A restore after registry loss adopts the log tokens and the dashboard login the backends
    // still hold, so workloads shipping logs keep working: its steps find them (or mint them).
    ...(req.restore ? {} : logAndDashboardSecrets(deps)),
  };
  const row = await insertTenant(db, { name: req.name, index, status: 'provisioning', ...sealedColumns(deps, secrets) });
  if (!row) return undefined; // a concurrent create took the name: look again
  return { kind: 'proceed', name: req.name, index, outcome, secrets: sealValue(keys, secrets), steps: createStepsFor(site, { holdsDeviceAddresses: false }) };
}
