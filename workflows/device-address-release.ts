import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { parkedPolicy, serveRun } from './attempts.js';
import { attemptDeviceAddressRelease, type BackendStep, type DeviceInput, type ReleaseResult } from '../contracts/device-address.js';
import { about } from './device-address-about.js';
import { runStep } from './run-step.js';
import { underNameLease } from './tenant-lease.js';
import { deprecated } from './patches.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/** `device-address-release/<tenant>/<device>`: the name, then the router, then the registry row. */
export async function deviceAddressRelease(input: DeviceInput): Promise<ReleaseResult | undefined> {
  deprecated('run-model');
  return serveRun(
    attemptDeviceAddressRelease,
    (req) => underNameLease(req.tenant, req.device, 'device address release', () => release(req)),
    parkedPolicy(input, 'device address release'),
  );
}

async function release(input: DeviceInput): Promise<ReleaseResult> {
  const released = await runStep('device-address.release', [input], about(input));
  if (released.ok) return released.value;
  const reservation = await registry.deviceAddressView(input);
  return { kind: 'failed', step: released.step as BackendStep, ...(reservation ? { reservation } : {}) };
}
