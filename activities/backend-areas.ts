import type { Site } from './site.js';
import { admitAttempt } from './attempt-cancelled.js';
import { backendCalls, type BackendCalls } from '../backends/http/calls.js';
import type { BackendCallObserver } from '../backends/http/telemetry.js';
import type { BackendArea, Probe } from './backend-area.js';
import { brokerArea } from './broker/area.js';
import { certificatesArea } from './certificates/area.js';
import { dashboardsArea } from './dashboards/area.js';
import { deviceAddressArea } from './devices/area.js';
import { dnsArea } from './dns/area.js';
import { hypervisorArea } from './hypervisor/area.js';
import { logStoreArea } from './log-store/area.js';
import { networkArea } from './network/area.js';
import { resolverArea } from './resolver/area.js';
import { stateArea } from './state/area.js';
import { wifiArea } from './wifi/area.js';

/**
 * Every backend area, once: the worker binds its ports from this list (design §1) and
 * `worker --check-backends` runs its probes in this order. A new backend is its folder's
 * `area.ts` and one line here.
 */
export const BACKEND_AREAS = [
  dnsArea,
  resolverArea,
  stateArea,
  networkArea,
  hypervisorArea,
  logStoreArea,
  dashboardsArea,
  wifiArea,
  deviceAddressArea,
  brokerArea,
  certificatesArea,
] as const;

type Area = (typeof BACKEND_AREAS)[number];
type PortOf<A> = A extends BackendArea<string, infer P> ? P : never;

/**
 * What the steps need of each backend (`deps.ports`), one port per area under the area's `port`
 * name, typed by the area's `bind`. A backend the site may leave out (its `bind` can answer
 * undefined) is an optional port: its routes refuse with a reason where it is absent. The worker
 * binds them to the product adapters; tests bind the same adapters to real servers and simulators.
 */
export type BackendPorts = { [A in Area as undefined extends PortOf<A> ? never : A['port']]: PortOf<A> } & {
  [A in Area as undefined extends PortOf<A> ? A['port'] : never]?: Exclude<PortOf<A>, undefined>;
};

/**
 * Binds the site's backends to the product adapters. Their calls share `calls` (the worker's
 * pacing and telemetry, `workerBackendCalls`); a binding of its own, paced and unobserved, when absent.
 */
export function bindPorts(site: Site, opts: { timeoutMs?: number; calls?: BackendCalls } = {}): BackendPorts {
  const timeoutMs = opts.timeoutMs ?? site.backendTimeoutMs;
  const calls = opts.calls ?? workerBackendCalls(site);
  const ports: Record<string, unknown> = {};
  for (const area of BACKEND_AREAS as readonly BackendArea[]) ports[area.port] = area.bind(site, timeoutMs, calls);
  return ports as unknown as BackendPorts;
}

/**
 * One worker's pacing and telemetry of its backend calls: SITE_BACKEND_CALLS_PER_SECOND per
 * backend, observed by `observe` (the worker's metrics) when given. Made once per worker, where it
 * binds its ports, and given to its activities too (`deps.calls`: the isolation check's probes).
 */
export function workerBackendCalls(site: Site, observe?: BackendCallObserver): BackendCalls {
  // An attempt Temporal gave up on (its heartbeat late under load, its worker stopping) runs on
  // until its code returns: its calls stop here, or a write of it could land after a later
  // attempt's, or after the tenant's delete (a races trial found a deleted tenant's state-store
  // user made again), and an attempt that stalled asks Temporal before its call leaves.
  return backendCalls({ perSecond: site.backendCallsPerSecond, observe, admit: admitAttempt });
}

/** Releases what the bound ports hold open (the broker's control connection), once their worker has stopped. */
export async function releasePorts(ports: BackendPorts): Promise<void> {
  const bound = ports as unknown as Record<string, unknown>;
  await Promise.all((BACKEND_AREAS as readonly BackendArea[]).map((area) => area.release?.(bound[area.port])));
}

/** The read-only checks of every backend the site configures, in the list's order. */
export function backendProbes(site: Site, timeoutMs: number): Probe[] {
  return (BACKEND_AREAS as readonly BackendArea[]).flatMap((area) => area.probes?.(site, timeoutMs) ?? []);
}
