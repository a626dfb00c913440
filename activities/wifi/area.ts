import { wifiSettings } from './settings.js';
import type { WifiAdapter } from '../../backends/unifi/adapter.js';
import type { BackendArea } from '../backend-area.js';
import { siteWifiController } from './site-controller.js';
import { unifiProbe } from './check.js';

/** The wireless controller (UniFi Network): Wi-Fi keys on the site's WLANs and their MAC allow-lists. */
export const wifiArea: BackendArea<'wifi', WifiAdapter | undefined, typeof wifiSettings> = {
  port: 'wifi',
  settings: wifiSettings,
  bind: (site, timeoutMs, calls) => (site.wifi ? siteWifiController.connect({ ...site.wifi, timeoutMs, calls }) : undefined),
  probes: (site, timeoutMs) => (site.wifi ? [unifiProbe(site, site.wifi, timeoutMs)] : []),
};
