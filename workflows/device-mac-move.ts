import { attemptDeviceMacMove, type BackendStep, type DeviceInput, type SyncResult } from '../contracts/device-address.js';
import { about } from './device-address-about.js';
import { itsDevice, objectRun } from './object-run.js';
import { runStep } from './run-step.js';

/** `device-mac/<tenant>/<device>/<mac>`: a device's new MAC takes over its reservation on the router. */
export async function deviceMacMove(input: DeviceInput): Promise<SyncResult | undefined> {
  return objectRun({ update: attemptDeviceMacMove, call: 'device mac move', hold: itsDevice, done: 'moved', attempt: moveMac }, input);
}

async function moveMac(input: DeviceInput): Promise<SyncResult> {
  const applied = await runStep('device-address.apply', [{ tenant: input.tenant, device: input.device, parts: ['dhcp'] }], about(input));
  return applied.ok ? { kind: 'done' } : { kind: 'failed', step: applied.step as BackendStep };
}
