import { proxyLocalActivities, upsertMemo } from '@temporalio/workflow';
import { PLAN_OF_AREA } from '../core/step-table.js';
import { areaOf, runStep } from './run-step.js';
import type { Activities } from '../activities/index.js';
import { begunWith, deprecated } from './patches.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { serveAttempts } from './attempts.js';
import { attemptTenantCreate, type CreateRequest, type CreateResult, type CreateWorkflowInput, type StepReport } from '../contracts/tenant.js';
import { aloneOnTenant } from './tenant-lease.js';
import { ensureSteps, fabric } from './tenant-step-sequence.js';

// `registerTenant` is `prepareTenant` under its 0.14 name (contracts/compatibility.ts).
const registry = proxyLocalActivities<Activities & { registerTenant: Activities['prepareTenant'] }>(REGISTRY_OPTIONS);

/**
 * `tenant-create/<name>`: each create call is an attempt delivered by update. Attempts that arrive
 * while one runs join it, so concurrent identical creates converge on one identity. After a failed
 * step the run parks and the next attempt resumes; after success it ends, and parked too long it
 * ends Failed (a later create starts a fresh run, which re-ensures every step).
 */
export function tenantCreate(input: CreateWorkflowInput): Promise<CreateResult | undefined> {
  return serveAttempts(attemptTenantCreate, attempt, {
    kind: 'parked',
    parkedTimeoutMs: input.parkedTimeoutMs,
    call: 'create',
    failedStep: (r) => (r.kind === 'failed' ? r.step : undefined),
  });
}

function attempt(req: CreateRequest): Promise<CreateResult> {
  // The tenant alone for the attempt: a delete or reconcile of the name waits for it (docs/decisions.md).
  return aloneOnTenant(
    req.name,
    'create',
    () => tryCreate(req),
    (r) => (r.kind === 'ready' ? r.outcome : r.kind),
  );
}

async function tryCreate(req: CreateRequest): Promise<CreateResult> {
  const prepareTenant = begunWith('prepare-names') ? registry.prepareTenant : registry.registerTenant;
  let reg = await prepareTenant({ request: req });
  if (reg.kind === 'needs-fabric') {
    // A new name: its index is chosen from what the fabric carries, read by the network step.
    const read = await fabric.indexes(req.name);
    if (!read.ok) return { kind: 'failed', step: 'network' };
    reg = await prepareTenant({ request: req, fabric: read.value });
  }
  if (reg.kind === 'refused') return reg;
  if (reg.kind === 'needs-fabric') throw new Error('registration asked for the fabric twice');
  upsertMemo({ index: reg.index });
  const run = await ensureSteps({ name: reg.name, index: reg.index }, reg.steps);
  if (!run.ok) {
    const { tenant, secrets } = await registry.failAttempt({
      name: reg.name,
      step: run.step,
      answer: { kind: 'create', carried: reg.secrets },
      ...(req.actor ? { actor: req.actor } : {}),
    });
    return { kind: 'failed', step: run.step, tenant, secrets };
  }
  const { tenant, secrets } = await registry.finishAttempt({
    name: reg.name,
    outcome: reg.outcome,
    carried: reg.secrets,
    ...(req.actor ? { actor: req.actor } : {}),
  });
  let found: StepReport[] | undefined;
  if (reg.outcome === 'restored') {
    deprecated('restore-report');
    found = await whatTheBackendsHold(reg.name, reg.index);
  }
  return { kind: 'ready', outcome: reg.outcome, tenant, secrets, ...(found ? { found } : {}) };
}

/**
 * After a restore, the object areas' plans: the registry the tenant restored holds none of its
 * objects, so whatever the backends hold under its VMID range or its broker prefix is reported
 * (`unknown`), never adopted by guess. Reads only; a plan that fails is left out of the report
 * rather than failing a restore whose steps all passed.
 */
async function whatTheBackendsHold(name: string, index: number): Promise<StepReport[]> {
  const start = await registry.beginReconcile({ name });
  if (start.kind === 'refused') return [];
  const report: StepReport[] = [];
  // Checked once per restore, before the plans, so the marker stands where replays look for it.
  // Restores begun with it skip the Wi-Fi plan: a controller entry names no key, so it can report no unknown one.
  const skipWifi = begunWith('restore-report-without-wifi');
  for (const area of start.areas ?? []) {
    if (skipWifi && area === 'wifi.reconcile-keys') continue;
    const plan = PLAN_OF_AREA[area];
    const run = await runStep(plan, [{ name, index }], { object: `what the backends hold of tenant ${name}` });
    if (run.ok) report.push({ step: areaOf(plan), ok: true, objects: run.value.filter((o) => o.result !== 'in-place') });
  }
  return report.filter((s) => s.objects.length > 0);
}
