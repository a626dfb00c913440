/**
 * Forward targets as the recursor reports them (`ip:port`, `[ipv6]:port`), so a spec given as
 * `192.0.2.53` and a forward listed as `192.0.2.53:53` compare equal.
 */
export function normalizeTarget(target: string): string {
  const t = target.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(t);
  if (bracketed) return `[${bracketed[1] ?? ''}]:${port(bracketed[2], target)}`;
  if (t.startsWith('[')) throw new RangeError(`not a forward target: ${target}`);
  // More than one colon and no brackets: a bare IPv6 address, which cannot carry a port.
  if (t.split(':').length > 2) return `[${t}]:53`;
  const [host, p] = t.split(':');
  if (!host) throw new RangeError(`not a forward target: ${target}`);
  return `${host}:${port(p, target)}`;
}

function port(p: string | undefined, target: string): number {
  if (p === undefined) return 53;
  const n = Number(p);
  if (!/^\d{1,5}$/.test(p) || n < 1 || n > 65535) throw new RangeError(`bad port in forward target: ${target}`);
  return n;
}
