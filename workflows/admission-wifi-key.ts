import { attemptAdmissionWifiKey, type AdmissionKeyInput, type AdmissionKeyResult } from '../contracts/wifi-key.js';
import { objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';
import { ofKey } from './wifi-key-about.js';

/**
 * `admission-wifi/<name>`: each admission issues a new key on the tenant developer network; the
 * earlier key of the name stops working in the same controller write. No tenant to hold yet (the
 * name is only admitted): the run holds nothing, and its key is claimed at once.
 */
export async function admissionWifiKey(input: AdmissionKeyInput): Promise<AdmissionKeyResult | undefined> {
  return objectRun({ update: attemptAdmissionWifiKey, call: 'admission', hold: () => undefined, done: 'issued', attempt: admit }, input);
}

async function admit(input: AdmissionKeyInput): Promise<AdmissionKeyResult> {
  const minted = await registry.mintAdmissionKey(input);
  const ensured = await runStep(
    'wifi.ensure-key',
    [{ tenant: input.name, name: 'admission', replaces: minted.replaces, ...(minted.previous ? { previous: minted.previous } : {}) }],
    ofKey(input.name, 'admission'),
  );
  return ensured.ok ? { kind: 'done', key: minted.key } : { kind: 'failed', step: 'wifi', key: minted.key };
}
