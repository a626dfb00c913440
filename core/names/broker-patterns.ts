import { uncarriableReason } from './carriable.js';
/**
 * Topic patterns of a broker account: validated, then made absolute under the tenant, which is
 * the form the broker enforces and the responses return. Pure; every refusal is a reason fit for
 * a 400 (it quotes only the caller's own pattern).
 *
 * Decisions beyond the spec's wording (each has a row in core/names/broker-patterns.test.ts):
 * - A level starting with `$` anywhere is refused, not only `$SYS`: `$` topics belong to the
 *   broker (`$SYS`, `$CONTROL`, `$share`) and no tenant topic needs one.
 * - An empty level (`a//b`, `a/`) is refused: the leading-`/` rule exists to stop empty levels
 *   and there is no use for one inside a tenant's tree.
 * - `+` and `#` must fill their level (`a+` is not a wildcard in MQTT and brokers refuse it).
 * - The `log` space is the tenant's first level `log` (topic `<tenant>/log` itself included).
 *   A first level of `+` or `#` "reaches it without naming it". Such a pattern is refused where
 *   the account may not have the whole log space: publish for every account (a workload may not
 *   publish there, a device only to its own topic), subscribe for a device account. A workload
 *   may subscribe to `#` and `+/...`: the log space is open to it for reading.
 * - Duplicates are dropped (after `#` became `<tenant>/#`), keeping the first.
 */

export const MAX_PATTERNS = 64;
export const MAX_PATTERN_LENGTH = 256;
export const LOG_LEVEL = 'log';

export interface AccountPatternsInput {
  tenant: string;
  /** Present for a device account; the device's name is its own log topic `log/<device>`. */
  device?: string | undefined;
  publish: readonly string[];
  subscribe: readonly string[];
}

export type AccountPatterns = { ok: true; publish: string[]; subscribe: string[] } | { ok: false; reason: string };

type Direction = 'publish' | 'subscribe';

/** Validate both lists against the six rules and return them absolute (`<tenant>/...`). */
export function absolutePatterns(input: AccountPatternsInput): AccountPatterns {
  const { tenant, device } = input;
  if (device !== undefined) {
    const bad = levelReason(device);
    if (bad) return { ok: false, reason: `device name ${JSON.stringify(device)} cannot be a topic level: ${bad}` };
  }
  if (input.publish.length === 0 && input.subscribe.length === 0) {
    return { ok: false, reason: 'publish and subscribe cannot both be empty' };
  }
  const out: Record<Direction, string[]> = { publish: [], subscribe: [] };
  for (const direction of ['publish', 'subscribe'] as const) {
    const list = input[direction];
    if (list.length > MAX_PATTERNS) return { ok: false, reason: `${direction} holds more than ${MAX_PATTERNS} patterns` };
    for (const pattern of list) {
      const reason = patternReason(pattern, direction, device);
      if (reason) return { ok: false, reason: `${direction} pattern ${JSON.stringify(pattern)}: ${reason}` };
      const absolute = `${tenant}/${pattern}`;
      if (!out[direction].includes(absolute)) out[direction].push(absolute);
    }
  }
  return { ok: true, publish: out.publish, subscribe: out.subscribe };
}

/** Why one relative pattern is refused for this account and direction, or null. */
export function patternReason(pattern: string, direction: Direction, device?: string): string | null {
  const syntax = syntaxReason(pattern);
  if (syntax) return syntax;
  const first = pattern.split('/')[0];
  const reachesLog = first === '+' || first === '#';
  const namesLog = first === LOG_LEVEL;
  if (device !== undefined) {
    if (direction === 'publish') {
      if (namesLog && pattern !== `${LOG_LEVEL}/${device}`) {
        return `a device account may publish under ${LOG_LEVEL}/ only to ${LOG_LEVEL}/${device}`;
      }
      if (reachesLog) return `reaches the reserved ${LOG_LEVEL}/ level; a device account must name its first level`;
    } else {
      if (namesLog) return `a device account may not subscribe under ${LOG_LEVEL}/`;
      if (reachesLog) return `reaches the reserved ${LOG_LEVEL}/ level, where a device account may not subscribe; name the first level`;
    }
  } else if (direction === 'publish') {
    if (namesLog) return `a workload account may not publish under ${LOG_LEVEL}/`;
    if (reachesLog) return `reaches the reserved ${LOG_LEVEL}/ level, where a workload account may not publish; name the first level`;
  }
  return null;
}

function syntaxReason(pattern: string): string | null {
  if (pattern.length === 0) return 'empty pattern';
  if (pattern.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  if (pattern.startsWith('/')) return 'patterns are relative to the tenant: remove the leading "/"';
  if (pattern.includes('%')) return '"%" is not allowed';
  const levels = pattern.split('/');
  for (const [i, level] of levels.entries()) {
    if (level === '#') {
      if (i !== levels.length - 1) return '"#" must be the last level';
      continue;
    }
    if (level === '+') continue;
    const bad = levelReason(level);
    if (bad) return bad;
  }
  return null;
}

/** Why a literal level is refused, or null. */
function levelReason(level: string): string | null {
  if (level.length === 0) return 'empty topic level';
  if (level.startsWith('$')) return '"$" topics such as $SYS belong to the broker';
  if (level.includes('#')) return '"#" must be a whole level, and the last one';
  if (level.includes('+')) return '"+" must be a whole level';
  if (level.includes('/')) return 'contains "/"';
  if (level.includes('%')) return '"%" is not allowed';
  // MQTT forbids U+0000 and discourages control characters; the broker refuses them, C1 included.
  const uncarriable = uncarriableReason(level);
  if (uncarriable) return uncarriable.startsWith('contains a control') ? 'control characters are not allowed' : uncarriable;
  return null;
}
