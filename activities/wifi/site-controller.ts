import type { WifiController } from '../../backends/unifi/adapter.js';
import { unifiController, type UnifiWifiOptions } from '../../backends/unifi/unifi.js';

/**
 * The wireless controller a site runs: UniFi Network at every site today (docs/decisions.md,
 * "Wireless controller"). The worker connects through it and the API asks it what it can do
 * before issuing anything, so a controller that can bind keys to clients is a new adapter chosen
 * here, not a new branch in either.
 */
export const siteWifiController: WifiController<UnifiWifiOptions> = unifiController;
