import type { Site } from './site.js';
import { paceBackendCalls } from '../backends/http/pace.js';
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

/** Binds the site's backends to the product adapters. */
export function bindPorts(site: Site, opts: { timeoutMs?: number } = {}): BackendPorts {
  const timeoutMs = opts.timeoutMs ?? site.backendTimeoutMs;
  paceBackendCalls(site.backendCallsPerSecond);
  const ports: Record<string, unknown> = {};
  for (const area of BACKEND_AREAS as readonly BackendArea[]) ports[area.port] = area.bind(site, timeoutMs);
  return ports as unknown as BackendPorts;
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
