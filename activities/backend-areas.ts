import type { Site } from '../core/site.js';
import { paceBackendCalls } from './backend-pace.js';
import type { BackendArea, Probe } from './backend-area.js';
import type { BackendPorts } from './ports.js';
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

// Every port has its area: a port without one fails to compile here.
type Unbound = Exclude<keyof BackendPorts, (typeof BACKEND_AREAS)[number]['port']>;
const everyPortBound: [Unbound] extends [never] ? true : Unbound = true;
void everyPortBound;

/** Binds the site's backends to the product adapters. */
export function bindPorts(site: Site, opts: { timeoutMs?: number } = {}): BackendPorts {
  const timeoutMs = opts.timeoutMs ?? site.backendTimeoutMs;
  paceBackendCalls(site.backendCallsPerSecond);
  const ports: Partial<Record<keyof BackendPorts, unknown>> = {};
  for (const area of BACKEND_AREAS as readonly BackendArea[]) ports[area.port] = area.bind(site, timeoutMs);
  return ports as BackendPorts;
}

/** The read-only checks of every backend the site configures, in the list's order. */
export function backendProbes(site: Site, timeoutMs: number): Probe[] {
  return (BACKEND_AREAS as readonly BackendArea[]).flatMap((area) => area.probes?.(site, timeoutMs) ?? []);
}
