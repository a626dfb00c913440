import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { serveRun } from './attempts.js';
import * as before from './before-run-model/index.js';
import { DEFAULT_PARKED_MS } from '../contracts/attempt.js';
import {
  attemptAdmissionWifiKey, attemptWifiKeyIssue, attemptWifiKeyRevoke,
  type AdmissionKeyInput, type AdmissionKeyResult, type IssueKeyInput, type IssueKeyResult, type RevokeKeyInput, type RevokeKeyResult,
} from '../contracts/wifi-key.js';
import { runStep } from './run-step.js';
import { underLease } from './tenant-lease.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

const parked = (input: { parkedTimeoutMs?: number }, call: string) => ({ kind: 'parked' as const, parkedTimeoutMs: input.parkedTimeoutMs ?? DEFAULT_PARKED_MS, call });
const ofKey = (tenant: string, name: string) => ({ object: `Wi-Fi key ${name} of tenant ${tenant}` });

/**
 * `wifi-key/<tenant>/<name>`: the registry keeps (or mints, or restores) the key, then the
 * controller is made to hold it. A failed controller write answers the key with its psk and parks
 * the run; the repeated call keeps the same psk and resumes it.
 */
export async function wifiKeyIssue(input: IssueKeyInput): Promise<IssueKeyResult | undefined> {
  if (before.beganBeforeRunModel()) return before.wifiKeyIssue(input);
  return serveRun(attemptWifiKeyIssue, (req) => underLease(req.tenant, 'shared', 'wifi key issue', () => issue(req)), parked(input, 'wifi key issue'), (r) => (r.kind === 'done' ? 'issued' : r.kind));
}

async function issue(input: IssueKeyInput): Promise<IssueKeyResult> {
  const reg = await registry.prepareWifiKey(input);
  if (reg.kind === 'refused') return reg;
  const ensured = await runStep('wifi.ensure-key', [{ tenant: input.tenant, name: input.name, replaces: reg.replaces }], ofKey(input.tenant, input.name));
  return ensured.ok ? { kind: 'done', key: reg.key } : { kind: 'failed', step: 'wifi', key: reg.key };
}

/** `wifi-key-revoke/<tenant>/<name>`: every device holding the key stops associating. */
export async function wifiKeyRevoke(input: RevokeKeyInput): Promise<RevokeKeyResult | undefined> {
  if (before.beganBeforeRunModel()) return before.wifiKeyRevoke(input);
  return serveRun(attemptWifiKeyRevoke, (req) => underLease(req.tenant, 'shared', 'wifi key revoke', () => revoke(req)), parked(input, 'wifi key revoke'));
}

async function revoke(input: RevokeKeyInput): Promise<RevokeKeyResult> {
  const revoked = await runStep('wifi.revoke-key', [{ tenant: input.tenant, name: input.name }], ofKey(input.tenant, input.name));
  if (!revoked.ok) return { kind: 'failed', step: 'wifi' };
  return revoked.value ? { kind: 'revoked' } : { kind: 'refused', error: 'not_found', message: 'wifi key not found' };
}

/**
 * `admission-wifi/<name>`: each admission issues a new key on the tenant developer network; the
 * earlier key of the name stops working in the same controller write.
 */
export async function admissionWifiKey(input: AdmissionKeyInput): Promise<AdmissionKeyResult | undefined> {
  if (before.beganBeforeRunModel()) return before.admissionWifiKey(input);
  return serveRun(attemptAdmissionWifiKey, admit, parked(input, 'admission'), (r) => (r.kind === 'done' ? 'issued' : r.kind));
}

async function admit(input: AdmissionKeyInput): Promise<AdmissionKeyResult> {
  const minted = await registry.mintAdmissionKey(input);
  const ensured = await runStep('wifi.ensure-key', [{ tenant: input.name, name: 'admission', replaces: minted.replaces, ...(minted.previous ? { previous: minted.previous } : {}) }], ofKey(input.name, 'admission'));
  return ensured.ok ? { kind: 'done', key: minted.key } : { kind: 'failed', step: 'wifi', key: minted.key };
}
