import { wifiSettings } from './settings.js';
import type { WifiAdapter } from './adapter.js';
import { BackendError } from '../../core/backend-outcome.js';
import type { Site } from '../site.js';
import { type BackendArea, jsonApi, probe } from '../backend-area.js';
import { siteWifiController } from './site-controller.js';
import { unifiApiBase, unifiSession } from './unifi-session.js';
import { wifiStep } from './step.js';

/** The wireless controller (UniFi Network): Wi-Fi keys on the site's WLANs and their MAC allow-lists. */
export const wifiArea: BackendArea<'wifi', WifiAdapter | undefined, typeof wifiSettings> = {
  port: 'wifi',
  settings: wifiSettings,
  steps: [wifiStep],
  bind: (site, timeoutMs) => (site.wifi ? siteWifiController.connect({ ...site.wifi, timeoutMs }) : undefined),
  probes: (site, timeoutMs) => (site.wifi ? [unifiProbe(site, site.wifi, timeoutMs)] : []),
};

/** The WLANs the site names (trust classes, the developer networks), with the setting naming each. */
function namedWlans(site: Site, w: NonNullable<Site['wifi']>): [string, string][] {
  return [
    ...Object.entries(site.trustClasses).flatMap(([cls, c]) => (c.ssid ? [[c.ssid, `trust class ${cls}`] as [string, string]] : [])),
    ...(w.developer ? [[w.developer.ssid, 'SITE_WIFI_DEVELOPER_SSID'] as [string, string]] : []),
    ...(w.developer?.boundSsid ? [[w.developer.boundSsid, 'SITE_WIFI_DEVELOPER_BOUND_SSID'] as [string, string]] : []),
  ];
}

function unifiProbe(site: Site, w: NonNullable<Site['wifi']>, timeoutMs: number) {
  return probe('wifi', w.url, async () => {
    // The adapter's own session: an API key, or the deployment's login.
    const res = await unifiSession(jsonApi('unifi', w.url, {}, timeoutMs, w.ca, w.pin), w).call({ path: `${unifiApiBase(w)}/rest/wlanconf` });
    const wlans = res.json<{ data?: { name?: string }[] }>().data ?? [];
    // Every WLAN the site names must stand on the controller: keys for a missing one never land.
    const missing = namedWlans(site, w).filter(([ssid]) => !wlans.some((x) => x.name === ssid));
    if (missing.length) {
      const which = missing.map(([ssid, by]) => `${ssid} (${by})`).join(', ');
      const bound = missing.some(([, by]) => by === 'SITE_WIFI_DEVELOPER_BOUND_SSID')
        ? ' (the bound developer WLAN: WPA2 on the developer network, a WLAN of its own; the service turns on its MAC filter)'
        : '';
      throw new BackendError('unifi', `site ${w.site} has no WLAN ${which}: create it on the controller${bound}, or correct the setting`, false);
    }
    return `UniFi Network (${w.deployment}${w.apiKey && w.deployment !== 'self-hosted' ? ', API key' : ', login'}) answers; site ${w.site} has ${wlans.length} WLANs`;
  });
}
