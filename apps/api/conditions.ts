import { conditionOf, type Condition } from '../../core/object-life.js';
import { runsOfObjects } from '../../db/queries/object-runs.js';
import type { Db } from '../../db/registry.js';

/**
 * What every read adds beside an object's `status`: the condition of its newest run (issue 42
 * item 2; core/object-life.ts), read from the registry the runs write to, never from Temporal.
 */
export interface Conditioned {
  /** The object's path below `/v1/` (`tenants/acme/workloads/web`), as its runs name it. */
  object: string;
  /** What its own row says: finished (`ready`, or written for an object without a status). */
  finished: boolean;
}

/** The views, each with its condition, from one read of their runs. */
export async function withConditions<V extends object>(db: Db, items: readonly (Conditioned & { view: V })[]): Promise<(V & { condition: Condition })[]> {
  const runs = await runsOfObjects(
    db,
    items.map((i) => i.object),
  );
  return items.map((i) => ({ ...i.view, condition: conditionOf(i.finished, runs.get(i.object) ?? []) }));
}

/** One view with its condition; undefined stays undefined (a 404). */
export async function withCondition<V extends object>(
  db: Db,
  view: V | undefined,
  at: (v: V) => Conditioned,
): Promise<(V & { condition: Condition }) | undefined> {
  if (!view) return undefined;
  const [one] = await withConditions(db, [{ ...at(view), view }]);
  return one;
}

/** The paths objects are named by (contracts/ids.ts), as reads look their runs up. */
export { objectPath } from '../../contracts/ids.js';
