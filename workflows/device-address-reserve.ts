import { attemptDeviceAddressReserve, type BackendStep, type ReserveInput, type ReserveResult } from '../contracts/device-address.js';
import { about } from './device-address-about.js';
import { itsDevice, objectRun } from './object-run.js';
import { runStep } from './run-step.js';

/**
 * `device-address/<tenant>/<device>/<address>`: chooses the address (or converges on the one
 * held), makes the reservation on the router and publishes `<device>.<zone>`. A failed backend
 * step answers the reservation as far as it got and parks the run; repeating the call resumes
 * it (every part is an ensure and the registry keeps the chosen address).
 */
export async function deviceAddressReserve(input: ReserveInput): Promise<ReserveResult | undefined> {
  return objectRun({ update: attemptDeviceAddressReserve, call: 'device address reserve', hold: itsDevice, done: 'reserved', attempt: reserve }, input);
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
