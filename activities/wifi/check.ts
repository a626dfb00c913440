import { BackendError } from '../../core/backend-outcome.js';
import type { Site } from '../site.js';
import { jsonApi, probe } from '../backend-area.js';
import { unifiApiBase, unifiSession, writeRefusedFix, type UnifiSession } from '../../backends/unifi/unifi-session.js';

/**
 * `--check-backends` for the wireless controller: the credential opens the site's WLANs, every WLAN
 * the site names is there, and the credential may write them. Every Wi-Fi key is a PUT of its
 * WLAN, and a credential that reads but may not write (an API key the controller opens only for
 * reading or for the Integration API, aiounifi#1088; a read-only admin) would fail each key at its
 * first write: the check puts one WLAN's own name back (`PUT rest/wlanconf/{id} {name}`), a write
 * the controller accepts and that changes nothing.
 */
type Settings = NonNullable<Site['wifi']>;
type Wlan = { _id?: string; name?: string };

const credential = (w: Settings) => `${w.deployment}${w.apiKey && w.deployment !== 'self-hosted' ? ', API key' : ', login'}`;

/** The WLANs the site names (trust classes, the developer networks), with the setting naming each. */
function namedWlans(site: Site, w: NonNullable<Site['wifi']>): [string, string][] {
  return [
    ...Object.entries(site.trustClasses).flatMap(([cls, c]) => (c.ssid ? [[c.ssid, `trust class ${cls}`] as [string, string]] : [])),
    ...(w.developer ? [[w.developer.ssid, 'SITE_WIFI_DEVELOPER_SSID'] as [string, string]] : []),
    ...(w.developer?.boundSsid ? [[w.developer.boundSsid, 'SITE_WIFI_DEVELOPER_BOUND_SSID'] as [string, string]] : []),
  ];
}

export function unifiProbe(site: Site, w: NonNullable<Site['wifi']>, timeoutMs: number) {
  return probe('wifi', w.url, async () => {
    // The adapter's own session: an API key, or the deployment's login.
    const session = unifiSession(jsonApi('unifi', w.url, {}, timeoutMs, w.ca, w.pin), w);
    const res = await session.call({ path: `${unifiApiBase(w)}/rest/wlanconf` });
    const wlans = res.json<{ data?: Wlan[] }>().data ?? [];
    // Every WLAN the site names must stand on the controller: keys for a missing one never land.
    const missing = namedWlans(site, w).filter(([ssid]) => !wlans.some((x) => x.name === ssid));
    if (missing.length) {
      const which = missing.map(([ssid, by]) => `${ssid} (${by})`).join(', ');
      const bound = missing.some(([, by]) => by === 'SITE_WIFI_DEVELOPER_BOUND_SSID')
        ? ' (the bound developer WLAN: WPA2 on the developer network, a WLAN of its own; the service turns on its MAC filter)'
        : '';
      throw new BackendError('unifi', `site ${w.site} has no WLAN ${which}: create it on the controller${bound}, or correct the setting`, false);
    }
    const written = await provesWrites(session, w, wlans, namedWlans(site, w));
    return `UniFi Network (${credential(w)}) answers; site ${w.site} has ${wlans.length} WLANs${written}`;
  });
}

/** The no-op write on the first WLAN the site names (the ones the service writes); none to write, nothing proven. */
async function provesWrites(session: UnifiSession, w: Settings, wlans: Wlan[], named: [string, string][]): Promise<string> {
  const target = named.map(([ssid]) => wlans.find((x) => x.name === ssid)).find((x) => x?._id);
  if (!target) return '';
  const path = `rest/wlanconf/${target._id!}`;
  const res = await session.call({ method: 'PUT', path: `${unifiApiBase(w)}/${path}`, json: { name: target.name }, accept: [400, 401, 403, 404] });
  if (res.status < 300) return `; WLAN ${target.name!} writable (its name put back)`;
  let msg = 'no controller message';
  try {
    msg = res.json<{ meta?: { msg?: string } }>().meta?.msg ?? msg;
  } catch {}
  throw new BackendError(
    'unifi',
    `PUT ${path} (WLAN ${target.name!}'s own name put back, a no-op) -> ${res.status} ${msg}: ${writeRefusedFix(w)}; every Wi-Fi key would fail at its first write`,
    false,
    res.status,
  );
}
