import { proxyActivities } from '@temporalio/workflow';
import type { FormerActivities as Activities } from './activities.js';
import { STEP_OPTIONS } from '../activity-options.js';
import type { ReleaseResult, ReserveInput, ReserveResult, SyncResult } from '../../contracts/device-address.js';
import { activityName } from './activity-names.js';
import { failedStep } from './device-steps.js';
import { underNameLease } from '../tenant-lease.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);

/**
 * `device-address/<tenant>/<device>/<address>`: chooses the address (or converges on the one
 * held), makes the reservation on the router and publishes `<device>.<zone>`. A failed backend
 * step answers the reservation as far as it got; repeating the call resumes (every part is an
 * ensure and the registry keeps the chosen address).
 */
export function deviceAddressReserve(input: ReserveInput): Promise<ReserveResult> {
  return underNameLease(input.tenant, input.device, 'device address reserve', () => reserve(input));
}

async function reserve(input: ReserveInput): Promise<ReserveResult> {
  let chosen;
  try {
    chosen = await steps[activityName('prepareDeviceAddress')](input);
  } catch (err) {
    return { kind: 'failed', step: failedStep(err, 'device-address') };
  }
  if (chosen.kind === 'refused') return chosen;
  try {
    await steps.applyDeviceAddress({ tenant: input.tenant, device: input.device, parts: ['dhcp', 'dns'] });
  } catch (err) {
    return { kind: 'failed', step: failedStep(err, 'device-address'), reservation: chosen.reservation };
  }
  return { kind: 'done', reservation: chosen.reservation };
}

/** `device-address-release/<tenant>/<device>`: the name, then the router, then the registry row. */
export function deviceAddressRelease(input: { tenant: string; device: string }): Promise<ReleaseResult> {
  return underNameLease(input.tenant, input.device, 'device address release', () => release(input));
}

async function release(input: { tenant: string; device: string }): Promise<ReleaseResult> {
  try {
    return await steps.releaseDeviceAddress(input);
  } catch (err) {
    const step = failedStep(err, 'device-address');
    const reservation = await steps[activityName('deviceAddressView')](input);
    return { kind: 'failed', step, ...(reservation ? { reservation } : {}) };
  }
}

/** `device-mac/<tenant>/<device>/<mac>`: a device's new MAC takes over its reservation on the router. */
export function deviceMacMove(input: { tenant: string; device: string }): Promise<SyncResult> {
  return underNameLease(input.tenant, input.device, 'device mac move', () => moveMac(input));
}

async function moveMac(input: { tenant: string; device: string }): Promise<SyncResult> {
  try {
    await steps.applyDeviceAddress({ tenant: input.tenant, device: input.device, parts: ['dhcp'] });
  } catch (err) {
    return { kind: 'failed', step: failedStep(err, 'device-address') };
  }
  return { kind: 'done' };
}
