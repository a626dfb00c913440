import { parkedPolicy, serveRun } from './attempts.js';
import { attemptDeviceMacMove, type BackendStep, type DeviceInput, type SyncResult } from '../contracts/device-address.js';
import { about } from './device-address-about.js';
import { runStep } from './run-step.js';
import { underNameLease } from './tenant-lease.js';
import { deprecated } from './patches.js';

/** `device-mac/<tenant>/<device>/<mac>`: a device's new MAC takes over its reservation on the router. */
export async function deviceMacMove(input: DeviceInput): Promise<SyncResult | undefined> {
  deprecated('run-model');
  return serveRun(
    attemptDeviceMacMove,
    (req) => underNameLease(req.tenant, req.device, 'device mac move', () => moveMac(req)),
    parkedPolicy(input, 'device mac move'),
    (r) => (r.kind === 'done' ? 'moved' : r.kind),
  );
}

async function moveMac(input: DeviceInput): Promise<SyncResult> {
  const applied = await runStep('device-address.apply', [{ tenant: input.tenant, device: input.device, parts: ['dhcp'] }], about(input));
  return applied.ok ? { kind: 'done' } : { kind: 'failed', step: applied.step as BackendStep };
}
