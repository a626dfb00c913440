import { CANARY_OBJECT } from '../../core/canaries.js';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { sendUpdate, type TsigKey } from '../../backends/powerdns/rfc2136.js';
import type { ActivityDeps } from '../deps.js';
import { canaryCredentials } from './credentials.js';
import { verdict } from './verdict.js';

/** Answers that mean the server let the update through (NOERROR), or refused it as not allowed. */
const REFUSALS = new Set(['REFUSED', 'NOTAUTH', 'NOTZONE']);

/**
 * `dns.isolation-probe`: the credential's TSIG key sends an RFC 2136 update to the object's
 * forward zone, as `nsupdate` would, at the canary's published name `probe.<zone>` (its Record):
 * add a TXT record there, then delete it again (what reached is cleaned; the name's A record is
 * never touched). The spec keeps a tenant's key usable for the names it publishes, so on its own
 * zone the update must land; on the other canary's it must be refused. Any other answer than
 * NOERROR or a refusal is a failure to retry: nothing is known of the zone's update ACL.
 */
export async function dnsProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const [from, to] = await Promise.all([canaryCredentials(deps, input.credentialOf), canaryCredentials(deps, input.objectOf)]);
  const key: TsigKey = { name: from.identity.tsigKeyName, algorithm: from.identity.tsigAlgorithm, secret: from.secrets.tsigSecret! };
  const name = `${CANARY_OBJECT}.${to.identity.zone}`;
  const server = deps.site.dns.updateServer;
  // Each update takes its slot of the site's bound on calls to PowerDNS (SITE_BACKEND_CALLS_PER_SECOND), as the service's own do.
  await deps.calls.paced('powerdns');
  const added = await sendUpdate(server, to.identity.zone, [{ add: { name, type: 'TXT', ttl: 60, text: `probe by ${input.credentialOf}` } }], key);
  if (added !== 'NOERROR' && !REFUSALS.has(added)) throw new Error(`the update server answered ${added}`);
  if (added === 'NOERROR') {
    await deps.calls.paced('powerdns');
    await sendUpdate(server, to.identity.zone, [{ deleteRRset: { name, type: 'TXT' } }], key);
  }
  return verdict('dns', 'TSIG key', input, [{ what: `update of published name ${name} (${added})`, reached: added === 'NOERROR' }]);
}
