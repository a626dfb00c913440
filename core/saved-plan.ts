import { createHash } from 'node:crypto';

/**
 * A saved plan (issue 47 item 1), Terraform's saved plan for a tenant's reconcile: what a plan
 * observed of every backend object, kept so that applying it carries out exactly that, and is
 * refused when anything it covered moved since.
 */
export interface PlannedObject {
  area: string;
  object: string;
  result: string;
  fields?: string[];
}

/** How long a saved plan may be applied (a plan describes the world of its moment). */
export const PLAN_LIFETIME_MS = 60 * 60_000;

const keyOf = (o: PlannedObject) => `${o.area}\u0000${o.object}`;
const stateOf = (o: PlannedObject) => `${o.result}${o.fields?.length ? ` (${[...o.fields].sort().join(',')})` : ''}`;

/** The digest of what a plan observed: the same for the same objects in the same states, in any order. */
export function planDigest(objects: readonly PlannedObject[]): string {
  const lines = objects.map((o) => `${keyOf(o)}\u0000${stateOf(o)}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** What moved between a saved plan and the world now, one line per object, in the API's words. */
export function movedSince(planned: readonly PlannedObject[], now: readonly PlannedObject[]): string[] {
  const before = new Map(planned.map((o) => [keyOf(o), o]));
  const after = new Map(now.map((o) => [keyOf(o), o]));
  const moved: string[] = [];
  for (const [key, o] of before) {
    const n = after.get(key);
    if (!n) moved.push(`${o.area}: ${o.object} was ${stateOf(o)}, now gone`);
    else if (stateOf(n) !== stateOf(o)) moved.push(`${o.area}: ${o.object} was ${stateOf(o)}, now ${stateOf(n)}`);
  }
  for (const [key, n] of after) if (!before.has(key)) moved.push(`${n.area}: ${n.object} is new, ${stateOf(n)}`);
  return moved.sort();
}

/** What a plan with prune removes: the objects nothing holds (`unknown`), by name. */
export const removalsOf = (objects: readonly PlannedObject[]): string[] => objects.filter((o) => o.result === 'unknown').map((o) => o.object);
