import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { parkedPolicy, serveRun } from './attempts.js';
import { attemptAdmissionWifiKey, type AdmissionKeyInput, type AdmissionKeyResult } from '../contracts/wifi-key.js';
import { claimObject, runStep } from './run-step.js';
import { ofKey } from './wifi-key-about.js';
import { deprecated } from './patches.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `admission-wifi/<name>`: each admission issues a new key on the tenant developer network; the
 * earlier key of the name stops working in the same controller write.
 */
export async function admissionWifiKey(input: AdmissionKeyInput): Promise<AdmissionKeyResult | undefined> {
  deprecated('run-model');
  return serveRun(attemptAdmissionWifiKey, admit, parkedPolicy(input, 'admission'), (r) => (r.kind === 'done' ? 'issued' : r.kind));
}

async function admit(input: AdmissionKeyInput): Promise<AdmissionKeyResult> {
  // No tenant to hold yet (the name is only admitted): its key is claimed at once.
  await claimObject();
  const minted = await registry.mintAdmissionKey(input);
  const ensured = await runStep(
    'wifi.ensure-key',
    [{ tenant: input.name, name: 'admission', replaces: minted.replaces, ...(minted.previous ? { previous: minted.previous } : {}) }],
    ofKey(input.name, 'admission'),
  );
  return ensured.ok ? { kind: 'done', key: minted.key } : { kind: 'failed', step: 'wifi', key: minted.key };
}
