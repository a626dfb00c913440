/**
 * `--check-backends` for PowerDNS Recursor: that forward zones added through its API land and last
 * (https://doc.powerdns.com/recursor/settings.html#api-config-dir). Each tenant's resolver step adds
 * forwards; the Recursor writes each to a file in `api-config-dir` and refuses it (422) without one.
 * The check adds a forward of its own, under `.invalid` (RFC 6761: no tenant's, never resolvable),
 * and removes it: the one write that proves the directory is set and writable. (A PUT of
 * `config/allow-from` with its value would write too, but leaves a file in the directory that from
 * then on overrides the operator's own allow-from in recursor.conf.)
 */
import { z } from 'zod';
import { BackendError } from '../../core/backend-outcome.js';
import type { BackendHttp } from '../../backends/http/client.js';

const PRODUCT = 'recursor';
export const CHECK_FORWARD = 'svc-provisioning-check.invalid.';
/** Where the check's forward points: nowhere (TEST-NET-1), it is never queried. */
const NOWHERE = '192.0.2.1:53';

const configList = z.array(z.object({ name: z.string(), value: z.string() }).passthrough());

const NO_CONFIG_DIR =
  'api-config-dir is not set: the Recursor refuses every forward zone the service adds (422); set api-config-dir and include-dir to the same directory, writable by the user pdns_recursor runs as, in recursor.conf and restart it';

export async function checkRecursor(api: BackendHttp): Promise<string> {
  const server = (await api.call({ path: 'servers/localhost' })).json<{ version?: string; daemon_type?: string }>();
  if (server.daemon_type !== undefined && server.daemon_type !== 'recursor') {
    throw new BackendError(
      PRODUCT,
      `SITE_RECURSOR_URL answers as PowerDNS ${server.daemon_type === 'authoritative' ? 'Authoritative' : server.daemon_type} (daemon_type ${server.daemon_type}): point it at PowerDNS Recursor's API (pdns_recursor's webserver), where the tenants' forward zones are written`,
      false,
    );
  }
  const config = new Map(configList.parse((await api.call({ path: 'servers/localhost/config' })).json()).map((c) => [c.name, c.value.trim()]));
  const dir = config.get('api-config-dir') ?? '';
  if (!dir) throw new BackendError(PRODUCT, NO_CONFIG_DIR, false);
  // The Recursor loads the forwards its API writes through include-dir, at once and at each start:
  // elsewhere, it writes the file and then answers 422 'Could not find domain'.
  if ((config.get('include-dir') ?? '').replace(/\/+$/, '') !== dir.replace(/\/+$/, '')) {
    throw new BackendError(
      PRODUCT,
      "include-dir is not api-config-dir: the Recursor writes each forward zone the service adds but never loads it (422 Could not find domain); set include-dir to api-config-dir's directory in recursor.conf",
      false,
    );
  }
  await addAndRemoveForward(api);
  return `PowerDNS Recursor ${server.version ?? '(version not given)'}; api-config-dir takes forward zones (one added and removed)`;
}

async function addAndRemoveForward(api: BackendHttp): Promise<void> {
  const zonePath = `servers/localhost/zones/${encodeURIComponent(CHECK_FORWARD)}`;
  // A check cut short last time left its forward: replaced, not refused as a duplicate.
  await api.call({ method: 'DELETE', path: zonePath, accept: [422] });
  const body = { name: CHECK_FORWARD, type: 'Zone', kind: 'Forwarded', servers: [NOWHERE], recursion_desired: false };
  const added = await api.call({ method: 'POST', path: 'servers/localhost/zones', json: body, accept: [422, 500] });
  if (added.status === 422 && /api-config-dir/i.test(added.text)) throw new BackendError(PRODUCT, NO_CONFIG_DIR, false, 422);
  if (added.status >= 400) {
    throw new BackendError(
      PRODUCT,
      `adding a forward zone was refused (${added.status} ${added.text.slice(0, 160)}): let the user pdns_recursor runs as write api-config-dir`,
      false,
      added.status,
    );
  }
  // 422: another check run at once removed it first.
  await api.call({ method: 'DELETE', path: zonePath, accept: [422] });
}
