import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { serveRun } from './attempts.js';
import * as before from './before-run-model/index.js';
import { DEFAULT_PARKED_MS } from '../contracts/attempt.js';
import {
  attemptDeviceAddressRelease, attemptDeviceAddressReserve, attemptDeviceMacMove,
  type BackendStep, type DeviceInput, type ReleaseResult, type ReserveInput, type ReserveResult, type SyncResult,
} from '../contracts/device-address.js';
import { runStep, type StepAbout } from './run-step.js';
import { underNameLease } from './tenant-lease.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/** A device address's activities write to the router, then to DNS: a failure names which. */
const about = (input: { tenant: string; device: string }): StepAbout => ({
  object: `the address of device ${input.device} of tenant ${input.tenant}`,
  areas: ['device-address', 'dns'],
});

const parked = (input: { parkedTimeoutMs?: number }, call: string) => ({ kind: 'parked' as const, parkedTimeoutMs: input.parkedTimeoutMs ?? DEFAULT_PARKED_MS, call });

/**
 * `device-address/<tenant>/<device>/<address>`: chooses the address (or converges on the one
 * held), makes the reservation on the router and publishes `<device>.<zone>`. A failed backend
 * step answers the reservation as far as it got and parks the run; repeating the call resumes
 * it (every part is an ensure and the registry keeps the chosen address).
 */
export async function deviceAddressReserve(input: ReserveInput): Promise<ReserveResult | undefined> {
  if (before.beganBeforeRunModel()) return before.deviceAddressReserve(input);
  return serveRun(attemptDeviceAddressReserve, (req) => underNameLease(req.tenant, req.device, 'device address reserve', () => reserve(req)), parked(input, 'device address reserve'), (r) => (r.kind === 'done' ? 'reserved' : r.kind));
}

async function reserve(input: ReserveInput): Promise<ReserveResult> {
  const chosen = await runStep('device-address.prepare', [input], about(input));
  if (!chosen.ok) return { kind: 'failed', step: chosen.step as BackendStep };
  if (chosen.value.kind === 'refused') return chosen.value;
  const { reservation } = chosen.value;
  const applied = await runStep('device-address.apply', [{ tenant: input.tenant, device: input.device, parts: ['dhcp', 'dns'] }], about(input));
  if (!applied.ok) return { kind: 'failed', step: applied.step as BackendStep, reservation };
  return { kind: 'done', reservation };
}

/** `device-address-release/<tenant>/<device>`: the name, then the router, then the registry row. */
export async function deviceAddressRelease(input: DeviceInput): Promise<ReleaseResult | undefined> {
  if (before.beganBeforeRunModel()) return before.deviceAddressRelease(input);
  return serveRun(attemptDeviceAddressRelease, (req) => underNameLease(req.tenant, req.device, 'device address release', () => release(req)), parked(input, 'device address release'));
}

async function release(input: DeviceInput): Promise<ReleaseResult> {
  const released = await runStep('device-address.release', [input], about(input));
  if (released.ok) return released.value;
  const reservation = await registry.deviceAddressView(input);
  return { kind: 'failed', step: released.step as BackendStep, ...(reservation ? { reservation } : {}) };
}

/** `device-mac/<tenant>/<device>/<mac>`: a device's new MAC takes over its reservation on the router. */
export async function deviceMacMove(input: DeviceInput): Promise<SyncResult | undefined> {
  if (before.beganBeforeRunModel()) return before.deviceMacMove(input);
  return serveRun(attemptDeviceMacMove, (req) => underNameLease(req.tenant, req.device, 'device mac move', () => moveMac(req)), parked(input, 'device mac move'), (r) => (r.kind === 'done' ? 'moved' : r.kind));
}

async function moveMac(input: DeviceInput): Promise<SyncResult> {
  const applied = await runStep('device-address.apply', [{ tenant: input.tenant, device: input.device, parts: ['dhcp'] }], about(input));
  return applied.ok ? { kind: 'done' } : { kind: 'failed', step: applied.step as BackendStep };
}
