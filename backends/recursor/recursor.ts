/**
 * Resolver adapter for PowerDNS Recursor 4.8 through its HTTP API
 * (https://doc.powerdns.com/recursor/http-api/zone.html and endpoint-zones, endpoint-cache-flush).
 *
 * The site resolver forwards a tenant's zones to the tenant DNS server as `Forwarded` zones with
 * recursion desired off: the target is authoritative, not a resolver. The recursor keeps these
 * in files under its api-config-dir; a PUT replaces one whole forward. After a forward changes
 * the zone's cache is flushed so answers from the old target are not served until they expire
 * (4.8 also wipes it when it reloads the zones; the explicit flush does not rely on that).
 */
import type { BackendCalls } from '../http/calls.js';
import { BackendHttp } from '../http/client.js';
import { BackendError, type ObjectOutcome } from '../../core/backend-outcome.js';
import { differs, ensure, once, plan, type Observation, type ObjectKind } from '../reconcile/reconcile.js';
import { normalizeTarget } from './targets.js';

const PRODUCT = 'pdns-recursor';

export interface RecursorAdapterOptions {
  /** API base including `/api/v1`, e.g. `http://127.0.0.1:8082/api/v1`. */
  apiUrl: string;
  apiKey: string;
  serverId?: string;
  timeoutMs?: number;
  /** The worker's pacing and telemetry of its backend calls (backends/http/calls.ts); neither when absent. */
  calls?: BackendCalls;
  /** PEM certificates to trust for this backend's HTTPS (its private CA); public roots when absent. */
  ca?: string;
}

export interface ForwardSpec {
  /** Zones to forward, e.g. the tenant's forward and reverse zone. */
  zones: string[];
  /** Targets as `ip`, `ip:port` or `[ipv6]:port`; port 53 when left out. */
  forwardTo: string[];
}

export interface ObservedForward {
  zone: string;
  exists: boolean;
  /** True when it is a forward to exactly `forwardTo`, without recursion desired. */
  matches: boolean;
  /** What differs, e.g. `kind`, `servers`, `recursion_desired`. */
  drift: string[];
}

export interface ResolverAdapter {
  observe(spec: ForwardSpec): Promise<ObservedForward[]>;
  /** One outcome per zone: `forward <zone>`. */
  ensure(spec: ForwardSpec): Promise<ObjectOutcome[]>;
  /** What ensure would report, from one read of the zone list. */
  plan(spec: ForwardSpec): Promise<ObjectOutcome[]>;
  /** Absent forwards are fine. */
  remove(spec: { zones: string[] }): Promise<void>;
}

interface ApiZone {
  id: string;
  name: string;
  kind: string;
  servers?: string[];
  recursion_desired?: boolean;
}

export function createRecursorAdapter(opts: RecursorAdapterOptions): ResolverAdapter {
  const http = new BackendHttp(PRODUCT, opts.apiUrl, { 'X-API-Key': opts.apiKey, accept: 'application/json' }, opts.timeoutMs, {
    ca: opts.ca,
    calls: opts.calls,
  });
  const server = `servers/${encodeURIComponent(opts.serverId ?? 'localhost')}`;
  const zonePath = (zone: string) => `${server}/zones/${encodeURIComponent(absolute(zone))}`;

  async function listZones(): Promise<Map<string, ApiZone>> {
    const zones = (await http.call({ path: `${server}/zones` })).json<ApiZone[]>() ?? [];
    return new Map(zones.map((z) => [absolute(z.name), z]));
  }

  async function flush(zone: string): Promise<void> {
    await http.call({ method: 'PUT', path: `${server}/cache/flush`, query: { domain: absolute(zone), subtree: 'true' } });
  }

  /** One forward, observed in the zone list `zones` reads (once for all the forwards of a call). */
  function forwardKind(zones: () => Promise<Map<string, ApiZone>>): ObjectKind<Forward> {
    return {
      object: (f) => `forward ${absolute(f.zone)}`,
      observe: async (f) => forwardObservation((await zones()).get(absolute(f.zone)), f.targets),
      async apply(f, seen) {
        const name = absolute(f.zone);
        const body = { name, type: 'Zone', kind: 'Forwarded', servers: f.targets, recursion_desired: false };
        if (!seen.exists) await http.call({ method: 'POST', path: `${server}/zones`, json: body });
        else await http.call({ method: 'PUT', path: zonePath(name), json: body });
        await flush(name);
      },
    };
  }

  /** Each of the spec's forwards through `step` (the reconciler's ensure or plan), from one read of the zone list. */
  async function each<R>(spec: ForwardSpec, step: (kind: ObjectKind<Forward>, f: Forward) => Promise<R>): Promise<R[]> {
    const targets = spec.forwardTo.map(normalizeTarget);
    const kind = forwardKind(once(listZones));
    const out: R[] = [];
    for (const zone of spec.zones) out.push(await step(kind, { zone, targets }));
    return out;
  }

  return {
    observe: (spec) =>
      each(spec, async (kind, f) => {
        const seen = await kind.observe(f);
        return { zone: absolute(f.zone), exists: seen.exists, matches: !differs(seen), drift: seen.drift };
      }),
    plan: (spec) => each(spec, plan),
    async ensure(spec) {
      if (spec.forwardTo.length === 0) throw new BackendError(PRODUCT, 'a forward needs at least one target', false);
      return each(spec, ensure);
    },

    async remove(spec) {
      const zones = await listZones();
      for (const zone of spec.zones) {
        const name = absolute(zone);
        // The recursor answers 422 for an unknown zone, the same as for a bad request: look first.
        if (!zones.has(name)) continue;
        await http.call({ method: 'DELETE', path: zonePath(name) });
        await flush(name);
      }
    },
  };
}

/** A zone forwarded to these targets (normalized). */
interface Forward {
  zone: string;
  targets: string[];
}

/** What differs of a forward found: `kind`, `servers`, `recursion_desired`. */
function forwardObservation(found: ApiZone | undefined, targets: string[]): Observation {
  if (!found) return { exists: false, drift: [] };
  const drift: string[] = [];
  if (found.kind.toLowerCase() !== 'forwarded') drift.push('kind');
  if (!sameSet((found.servers ?? []).map(normalizeTarget), targets)) drift.push('servers');
  if (found.recursion_desired) drift.push('recursion_desired');
  return { exists: true, drift };
}

function absolute(name: string): string {
  const n = name.trim().toLowerCase();
  return n.endsWith('.') ? n : `${n}.`;
}

function sameSet(a: string[], b: string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}
