import { randomInt } from 'node:crypto';

/**
 * A dashboard login's password that every Grafana password policy accepts: 24 characters with at
 * least one upper-case letter, one lower-case letter, one digit and one symbol (the strong policy,
 * `[auth.basic] password_policy = true`, asks for 12 and all four classes). Symbols are ones that
 * survive shells, URLs' userinfo-free uses and JSON without escaping.
 */
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGIT = '23456789';
const SYMBOL = '-_.~+=';
const ALL = UPPER + LOWER + DIGIT + SYMBOL;

export function newDashboardPassword(length = 24): string {
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(UPPER), pick(LOWER), pick(DIGIT), pick(SYMBOL)];
  while (chars.length < length) chars.push(pick(ALL));
  // Shuffle (Fisher-Yates) so the guaranteed classes sit anywhere.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
