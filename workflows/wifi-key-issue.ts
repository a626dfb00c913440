import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { REGISTRY_OPTIONS } from './activity-options.js';
import { parkedPolicy, serveRun } from './attempts.js';
import { attemptWifiKeyIssue, type IssueKeyInput, type IssueKeyResult } from '../contracts/wifi-key.js';
import { runStep } from './run-step.js';
import { underLease } from './tenant-lease.js';
import { ofKey } from './wifi-key-about.js';
import { deprecated } from './patches.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * `wifi-key/<tenant>/<name>`: the registry keeps (or mints, or restores) the key, then the
 * controller is made to hold it. A failed controller write answers the key with its psk and parks
 * the run; the repeated call keeps the same psk and resumes it.
 */
export async function wifiKeyIssue(input: IssueKeyInput): Promise<IssueKeyResult | undefined> {
  deprecated('run-model');
  return serveRun(
    attemptWifiKeyIssue,
    (req) => underLease(req.tenant, 'shared', 'wifi key issue', () => issue(req)),
    parkedPolicy(input, 'wifi key issue'),
    (r) => (r.kind === 'done' ? 'issued' : r.kind),
  );
}

async function issue(input: IssueKeyInput): Promise<IssueKeyResult> {
  const reg = await registry.prepareWifiKey(input);
  if (reg.kind === 'refused') return reg;
  const ensured = await runStep('wifi.ensure-key', [{ tenant: input.tenant, name: input.name, replaces: reg.replaces }], ofKey(input.tenant, input.name));
  return ensured.ok ? { kind: 'done', key: reg.key } : { kind: 'failed', step: 'wifi', key: reg.key };
}
