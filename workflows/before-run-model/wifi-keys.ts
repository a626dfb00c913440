import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { FormerActivities as Activities } from './activities.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from '../activity-options.js';
import { underLease } from '../tenant-lease.js';
import type { AdmissionKeyInput, AdmissionKeyResult, IssueKeyInput, IssueKeyResult, RevokeKeyResult } from '../../contracts/wifi-key.js';
import { activityName } from './activity-names.js';
import { failedStep } from './device-steps.js';

const steps = proxyActivities<Activities>(STEP_OPTIONS);
const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `wifi-key/<tenant>/<name>`: the registry keeps (or mints, or restores) the key, then the
 * controller is made to hold it. A failed controller write answers the key with its psk; the
 * repeated call keeps the same psk and resumes.
 */
export function wifiKeyIssue(input: IssueKeyInput): Promise<IssueKeyResult> {
  return underLease(input.tenant, 'shared', 'wifi key issue', () => issue(input));
}

async function issue(input: IssueKeyInput): Promise<IssueKeyResult> {
  const reg = await registry[activityName('prepareWifiKey')](input);
  if (reg.kind === 'refused') return reg;
  try {
    await steps.ensureWifiKey({ tenant: input.tenant, name: input.name, replaces: reg.replaces });
  } catch (err) {
    return { kind: 'failed', step: failedStep(err, 'wifi'), key: reg.key };
  }
  return { kind: 'done', key: reg.key };
}

/** `wifi-key-revoke/<tenant>/<name>`: every device holding the key stops associating. */
export function wifiKeyRevoke(input: { tenant: string; name: string }): Promise<RevokeKeyResult> {
  return underLease(input.tenant, 'shared', 'wifi key revoke', () => revoke(input));
}

async function revoke(input: { tenant: string; name: string }): Promise<RevokeKeyResult> {
  let revoked: boolean;
  try {
    revoked = await steps.revokeWifiKey(input);
  } catch (err) {
    return { kind: 'failed', step: failedStep(err, 'wifi') };
  }
  return revoked ? { kind: 'revoked' } : { kind: 'refused', error: 'not_found', message: 'wifi key not found' };
}

/**
 * `admission-wifi/<name>`: each admission issues a new key on the tenant developer network; the
 * earlier key of the name stops working in the same controller write.
 */
export async function admissionWifiKey(input: AdmissionKeyInput): Promise<AdmissionKeyResult> {
  const minted = await registry.mintAdmissionKey(input);
  try {
    await steps.ensureWifiKey({ tenant: input.name, name: 'admission', replaces: minted.replaces });
  } catch (err) {
    return { kind: 'failed', step: failedStep(err, 'wifi'), key: minted.key };
  }
  return { kind: 'done', key: minted.key };
}
