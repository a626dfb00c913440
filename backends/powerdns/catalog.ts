/**
 * How tenant zones reach the site's secondary name servers (docs/decisions.md, "Tenant zones reach
 * the secondaries"): each is a Primary zone and a member of the site's producer catalog zone
 * (RFC 9432; https://doc.powerdns.com/authoritative/catalog.html). A secondary consuming the catalog
 * adds and drops the members itself and transfers each from PowerDNS; PowerDNS NOTIFYs the
 * secondaries (its `also-notify`) when the catalog or a member changes.
 */
import type { BackendHttp } from '../http/client.js';
import { BackendError } from '../../core/backend-outcome.js';

const PRODUCT = 'powerdns';

/**
 * PowerDNS sets a producer's serial to the epoch time after each member change and never lowers it:
 * a zone created with a YYYYMMDDnn serial (what the API's default SOA-EDIT-API writes) is already
 * above the epoch, so its serial would never move and the secondaries never hear of a new member.
 * Hence serial 1 and no SOA-EDIT-API. The NS `invalid.` is RFC 9432's: nobody resolves a catalog.
 */
function producerZone(name: string) {
  return {
    name,
    kind: 'Producer',
    soa_edit_api: '',
    rrsets: [
      { name, type: 'SOA', ttl: 3600, records: [{ content: 'invalid. hostmaster.invalid. 1 3600 600 604800 1800', disabled: false }] },
      { name, type: 'NS', ttl: 3600, records: [{ content: 'invalid.', disabled: false }] },
    ],
  };
}

/** The site's producer catalog zone, created when absent; a zone of that name of another kind is the operator's and refused. */
export async function ensureCatalog(http: BackendHttp, server: string, catalog: string): Promise<void> {
  const path = `${server}/zones/${encodeURIComponent(catalog)}`;
  const found = await http.call({ path, query: { rrsets: 'false' }, accept: [404] });
  if (found.status === 404) {
    // 409: another worker created it in between.
    await http.call({ method: 'POST', path: `${server}/zones`, json: producerZone(catalog), accept: [409] });
    return;
  }
  const kind = found.json<{ kind?: string }>().kind ?? '';
  if (kind.toLowerCase() !== 'producer') {
    throw new BackendError(
      PRODUCT,
      `zone ${catalog} (SITE_DNS_CATALOG) is a ${kind} zone, not a producer catalog: name another zone in SITE_DNS_CATALOG, or make it one (pdnsutil set-kind ${catalog} producer)`,
      false,
    );
  }
}

/**
 * NOTIFY the zone's secondaries now (PUT .../notify), after a change through the API: PowerDNS
 * otherwise notices a changed serial only at its next `xfr-cycle-interval` round (60 s by default).
 * Tenants' own RFC 2136 updates notify through the zone's NOTIFY-DNSUPDATE metadata. A 422 (a zone
 * still Native, which the tenant's next reconcile moves into the catalog; or `primary` off, which
 * `--check-backends` names) leaves the change in place: it was written, and the secondaries
 * transfer it once the zone is moved or the setting fixed.
 */
export async function notifySecondaries(http: BackendHttp, zonePath: string): Promise<void> {
  await http.call({ method: 'PUT', path: `${zonePath}/notify`, accept: [422] });
}
