/** Parses `90s`, `30m`, `72h`, `7d` or a bare number of seconds into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit]!;
  return n * factor;
}
