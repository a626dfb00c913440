import { attemptDeviceAddressRelease, type BackendStep, type DeviceInput, type ReleaseResult } from '../contracts/device-address.js';
import { about } from './device-address-about.js';
import { itsDevice, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';

/** `device-address-release/<tenant>/<device>`: the name, then the router, then the registry row. */
export async function deviceAddressRelease(input: DeviceInput): Promise<ReleaseResult | undefined> {
  return objectRun({ update: attemptDeviceAddressRelease, call: 'device address release', hold: itsDevice, attempt: release }, input);
}

async function release(input: DeviceInput): Promise<ReleaseResult> {
  const released = await runStep('device-address.release', [input], about(input));
  if (released.ok) return released.value;
  const reservation = await registry.deviceAddressView(input);
  return { kind: 'failed', step: released.step as BackendStep, ...(reservation ? { reservation } : {}) };
}
