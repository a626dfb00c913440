import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import type { ChangeResult } from '../../core/backend-outcome.js';
import type { DeviceAddressAdapter, Reservation, ReservationChange } from './address-adapter.js';

/**
 * Every server of a Kea High Availability pair (or more), written alike. HA shares leases between
 * the partners, never the configuration, and the reservations are in the configuration: one
 * written to a single server is unknown to its partner, which hands a device a pool address after a
 * failover. So each change goes to every server, one after another (the site's own first): a
 * change stands when every server holds it; one that any server refused or could not take fails,
 * and its repeat finds it in place where it landed and writes the rest. Reads that choose an
 * address see every server's reservations.
 */
export function onEveryServer(servers: DeviceAddressAdapter[]): DeviceAddressAdapter {
  const [own, ...partners] = servers;
  if (!own) throw new Error('onEveryServer: no server');
  if (partners.length === 0) return own;
  const each = async <T>(work: (s: DeviceAddressAdapter, which: string) => Promise<T>): Promise<T[]> => {
    const out: T[] = [];
    for (const [i, s] of servers.entries()) out.push(await named(i, () => work(s, serverName(i))));
    return out;
  };
  return {
    observe: (mac) => own.observe(mac),
    list: async () => union(await each((s) => s.list())),
    plan: async (wanted) => merged(await each((s) => s.plan(wanted))),
    ensure: async (r) => merged(await each((s) => s.ensure(r))),
    remove: async (ref) => void (await each((s) => s.remove(ref))),
    write: async (changes: ReservationChange[]) => combined(await each(async (s, which) => ({ which, results: await s.write(changes) }))),
  };
}

/** No host in a reason: the servers by their place in the site's settings. */
const serverName = (i: number) => (i === 0 ? 'SITE_DHCP_URL' : `partner ${i} of SITE_DHCP_PARTNER_URLS`);

async function named<T>(i: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw onServer(e, serverName(i));
  }
}

function onServer(e: unknown, which: string): unknown {
  return e instanceof BackendError ? new BackendError(e.product, `on ${which}: ${e.detail}`, e.retryable, e.status) : e;
}

const RANK = { created: 2, corrected: 1, 'in-place': 0 } as Record<string, number>;

/** Per object, what the most was done anywhere: created on one server and in place on another is created. */
function merged(perServer: ObjectOutcome[][]): ObjectOutcome[] {
  return perServer[0]!.map((first, k) =>
    perServer.map((outcomes) => outcomes[k] ?? first).reduce((a, b) => ((RANK[b.result] ?? 0) > (RANK[a.result] ?? 0) ? b : a)),
  );
}

function union(lists: Reservation[][]): Reservation[] {
  const seen = new Map<string, Reservation>();
  for (const r of lists.flat()) seen.set(`${r.mac} ${r.address}`, seen.get(`${r.mac} ${r.address}`) ?? r);
  return [...seen.values()];
}

function combined(perServer: Array<{ which: string; results: Array<ChangeResult<ObjectOutcome[]>> }>): Array<ChangeResult<ObjectOutcome[]>> {
  return perServer[0]!.results.map((_, i) => {
    const failed = perServer.find((p) => !p.results[i]!.ok);
    if (failed) return { ok: false, error: onServer((failed.results[i] as { error: unknown }).error, failed.which) };
    return { ok: true, value: merged(perServer.map((p) => (p.results[i] as { value: ObjectOutcome[] }).value)) };
  });
}
