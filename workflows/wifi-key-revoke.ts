import { attemptWifiKeyRevoke, type RevokeKeyInput, type RevokeKeyResult } from '../contracts/wifi-key.js';
import { itsTenant, objectRun } from './object-run.js';
import { runStep } from './run-step.js';
import { ofKey } from './wifi-key-about.js';

/** `wifi-key-revoke/<tenant>/<name>`: every device holding the key stops associating. */
export async function wifiKeyRevoke(input: RevokeKeyInput): Promise<RevokeKeyResult | undefined> {
  return objectRun({ update: attemptWifiKeyRevoke, call: 'wifi key revoke', hold: itsTenant, attempt: revoke }, input);
}

async function revoke(input: RevokeKeyInput): Promise<RevokeKeyResult> {
  const revoked = await runStep(
    'wifi.revoke-key',
    [{ tenant: input.tenant, name: input.name, ...(input.actor ? { actor: input.actor } : {}) }],
    ofKey(input.tenant, input.name),
  );
  if (!revoked.ok) return { kind: 'failed', step: 'wifi' };
  return revoked.value ? { kind: 'revoked' } : { kind: 'refused', error: 'not_found', message: 'wifi key not found' };
}
