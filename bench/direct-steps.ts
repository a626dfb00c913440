import pino from 'pino';
import { createActivities } from '../activities/index.js';
import { bindPorts, workerBackendCalls } from '../activities/backend-areas.js';
import { loadConfig } from '../apps/config/env.js';
import { sealKeys } from '../apps/config/keys.js';
import { ensureActivity } from '../core/step-table.js';
import { claimTenant, releaseTenant } from '../db/queries/tenant-leases.js';
import { Registry } from '../db/registry.js';
import type { FloorSample } from './floor-activities.js';

/** One create of the direct reference: its latency, its step count, and what each call answered. */
export interface DirectCreate {
  ms: number;
  steps: number;
  sample: FloorSample;
}

/**
 * The same create steps a tenant create runs, called directly with the same adapters, built once
 * and warmed (a registry pool per create would add a connection setup to each). Configured by the
 * site's environment, as the worker is.
 */
export async function directCreator(env: Record<string, string | undefined>) {
  const config = loadConfig({ ...env, DATABASE_URL: env.DATABASE_URL! });
  const registry = new Registry(config.env.DATABASE_URL, undefined, 4);
  const calls = workerBackendCalls(config.site!);
  const acts = createActivities({
    site: config.site!,
    db: registry.db,
    ownConnection: registry.ownConnection,
    keys: sealKeys(config.site!),
    log: pino({ level: 'silent' }),
    ports: bindPorts(config.site!, { calls }),
    calls,
  });
  await registry.db.execute('select 1');
  return {
    /** One create, step by step as the workflow runs them. */
    async create(name: string): Promise<DirectCreate> {
      const t0 = performance.now();
      // The tenant's lease, as the workflow's local activities take and release it (the same
      // registry queries; the holder is the run there, this call here).
      const holder = `direct/${name}`;
      const claim = await claimTenant(registry.db, { tenant: name, holder, mode: 'exclusive', operation: 'create' });
      if (!claim.granted) throw new Error(`direct create: ${name} is held by ${claim.heldBy}`);
      try {
        const indexes = await acts['network.observe-indexes']();
        let reg = await acts.prepareTenant({ request: { name } });
        if (reg.kind === 'needs-fabric') reg = await acts.prepareTenant({ request: { name }, fabric: indexes });
        if (reg.kind !== 'proceed') throw new Error(`direct create refused: ${reg.kind === 'refused' ? reg.message : reg.kind}`);
        const steps: Record<string, unknown> = {};
        const times: string[] = [];
        for (const step of reg.steps) {
          const s0 = performance.now();
          steps[ensureActivity(step)] = await acts[ensureActivity(step)]({ name, index: reg.index });
          times.push(`${step} ${(performance.now() - s0).toFixed(1)}`);
        }
        const finished = await acts.finishAttempt({ name, outcome: reg.outcome, carried: reg.secrets });
        const ms = performance.now() - t0;
        if (env.BENCH_STEP_TIMES) process.stderr.write(`${name}: ${times.join(' ')} total ${ms.toFixed(1)}\n`);
        return { ms, steps: reg.steps.length, sample: { prepared: reg, finished, steps, indexes } };
      } finally {
        await releaseTenant(registry.db, name, holder);
      }
    },
    close: () => registry.close(),
  };
}
