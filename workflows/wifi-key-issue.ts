import { attemptWifiKeyIssue, type IssueKeyInput, type IssueKeyResult } from '../contracts/wifi-key.js';
import { itsTenant, objectRun } from './object-run.js';
import { registry } from './registry.js';
import { runStep } from './run-step.js';
import { ofKey } from './wifi-key-about.js';

/**
 * `wifi-key/<tenant>/<name>`: the registry keeps (or mints, or restores) the key, then the
 * controller is made to hold it. A failed controller write answers the key with its psk and parks
 * the run; the repeated call keeps the same psk and resumes it.
 */
export async function wifiKeyIssue(input: IssueKeyInput): Promise<IssueKeyResult | undefined> {
  return objectRun({ update: attemptWifiKeyIssue, call: 'wifi key issue', hold: itsTenant, done: 'issued', attempt: issue }, input);
}

async function issue(input: IssueKeyInput): Promise<IssueKeyResult> {
  const reg = await registry.prepareWifiKey(input);
  if (reg.kind === 'refused') return reg;
  const ensured = await runStep('wifi.ensure-key', [{ tenant: input.tenant, name: input.name, replaces: reg.replaces }], ofKey(input.tenant, input.name));
  return ensured.ok ? { kind: 'done', key: reg.key } : { kind: 'failed', step: 'wifi', key: reg.key };
}
