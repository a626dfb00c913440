import { Context } from '@temporalio/activity';
import { lifeOf, type Life, type RegistryHolds } from '../core/object-life.js';
import { registryNow, runsOfTenant } from '../db/queries/object-runs.js';
import type { ActivityDeps } from './deps.js';

/** An object's life (core/object-life.ts), by its path (contracts/ids.ts `objectPath`) and what its registry row says. */
export type LifeOf = (object: string, row: RegistryHolds) => Life;

/**
 * The run calling, when an activity calls: its own claim (a reconcile claims its tenant, a
 * create its object) is not another run's hold on the object.
 */
function callingWorkflow(): string | undefined {
  try {
    return Context.current().info.workflowExecution?.workflowId;
  } catch {
    return undefined;
  }
}

/**
 * The lives of a tenant's objects, from one read of their runs and the database's clock (claims
 * expire by it), for every reconcile area and step to decide each object from: correct it only
 * when settled, leave it to its run when held or to the repeat of its create when unfinished,
 * prune only what nothing claims (`mayCorrect`, `leftAlone`, `mayPrune`).
 *
 * Read it after the backend's list and before the registry's rows. A run claims its object before
 * it writes anything and writes its row before it stops claiming: so an object a run made after
 * the list is not in it, and one it made before is seen either claimed or with its row (a broker
 * client's row is written only after the broker holds it; rows read first could miss both).
 */
export async function livesOf(deps: Pick<ActivityDeps, 'db'>, tenant: string): Promise<LifeOf> {
  const runs = await runsOfTenant(deps.db, tenant);
  const now = await registryNow(deps.db);
  const self = callingWorkflow();
  return (object, row) =>
    lifeOf(
      row,
      (runs.get(object) ?? []).filter((r) => r.workflowId !== self),
      now,
    );
}
