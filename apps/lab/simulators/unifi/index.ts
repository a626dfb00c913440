/**
 * UniFi Network application simulator: the subset of the controller's classic REST API the
 * wifi adapter uses, reached the way a UniFi OS console serves it to an API key.
 *
 * Followed:
 * - UniFi OS consoles proxy the Network application under `/proxy/network`; an API key made
 *   under Settings > Control Plane > Integrations authenticates with the `X-API-KEY` header
 *   (help.ui.com "Getting Started with the Official UniFi API"; Art-of-WiFi/UniFi-API-client).
 *   A self-hosted application serves the same API under `/api`. Logins: auth.ts.
 * - Collections `api/s/<site>/rest/wlanconf[/<_id>]` and `api/s/<site>/rest/networkconf`; every
 *   answer is `{"meta":{"rc":"ok"},"data":[...]}`; an update is a PUT of the changed fields
 *   (paultyng/go-unifi wlan.generated.go; rootnegativ1/unifi-wifi unifi_api.py).
 * - Errors: `{"meta":{"rc":"error","msg":"api.err.LoginRequired"},"data":[]}` (401),
 *   `api.err.NoSiteContext` for an unknown site, `api.err.IdInvalid` for an unknown `_id`, and a
 *   refused field as captured from Network 10.4.57: 400 with meta `api.err.InvalidPayload` and
 *   `data[0]` = `{rc, msg: "api.err.InvalidValue", validationError: {field, pattern}}`.
 * - PPSK (Network 7.5.187+): `private_preshared_keys: [{password, networkconf_id}]` and
 *   `private_preshared_keys_enabled` on wlanconf (Art-of-WiFi issue #254, go-unifi issue #212);
 *   password pattern `[\x20-\x7E]{8,255}`.
 * - A PPSK entry has exactly `password` and `networkconf_id` (go-unifi's generated
 *   `WLANPrivatePresharedKeys`); nothing in it binds a key to one client. An entry with any other
 *   field is refused as an InvalidValue naming that field: stricter than a controller that might
 *   store or drop it silently, so an adapter that sends one fails here instead of on a site.
 * - The WLAN's MAC filter: `mac_filter_enabled`, `mac_filter_policy` (`allow|deny`) and
 *   `mac_filter_list` (colon-form MACs, pattern `^([0-9A-Fa-f]{2}:){5}([0-9A-Fa-f]{2})$`), from
 *   go-unifi's generated `WLAN`; a PUT naming a field outside that field list is refused naming it.
 * Lab assumptions, not taken from a document: the exact refusal of an enabled, empty PPSK list
 * (reported here as an InvalidValue on `private_preshared_keys`), the refusal of a password
 * repeated in one WLAN, and the refusal of unknown entry fields above.
 *
 * Lab-only route (no real controller serves `/__lab`): `POST /__lab/associate {ssid, psk, mac}`
 * answers `{vlan, network}` when a client with that key would be admitted, else 403. The WLAN's MAC
 * filter decides whether a client may associate at all; then the key alone decides its network.
 */
import { Hono } from 'hono';
import { withFaults, type Faults } from '../faults.js';
import { mountRoutes } from '../routes.js';
import { associate } from './associate.js';
import { unifiAuth, type UnifiAuth, type UnifiDeployment } from './auth.js';
import { apiError } from './envelope.js';
import type { NetworkConf, UnifiSite, WlanConf } from './model.js';
import { restRoutes, type SiteEnv } from './rest.js';
import { buildSite, type SiteSeed } from './site.js';

export * from './model.js';

export interface UnifiSimulatorOptions extends SiteSeed {
  /** `unifi-os` (default): a console, the API under `/proxy/network`; `self-hosted`: under `/api`, logins only. */
  deployment?: UnifiDeployment;
  /** The key clients present in `X-API-KEY` (a console only). */
  apiKey?: string;
  /** What the key may do (auth.ts): `read-only` refuses its writes; `state.keyAccess` changes it later. */
  keyAccess?: 'full' | 'read-only';
  /** The local admin a client may log in as. */
  login?: { username: string; password: string };
  /** Short site name used in paths (`api/s/<site>`). */
  site?: string;
}

export interface UnifiSimState {
  apiKey: string;
  keyAccess: 'full' | 'read-only';
  sites: Map<string, UnifiSite>;
  /** Successful PUTs, so tests can tell a no-op ensure from a write. */
  writes: number;
}

export interface UnifiSimulator {
  app: Hono;
  state: UnifiSimState;
  faults: Faults;
  auth: UnifiAuth;
  /** The site's WLAN by SSID, for tests that inspect or tamper with the controller directly. */
  wlan(ssid: string, site?: string): WlanConf | undefined;
  network(name: string, site?: string): NetworkConf | undefined;
}

export function createUnifiSimulator(opts: UnifiSimulatorOptions = {}): UnifiSimulator {
  const app = new Hono();
  const faults = withFaults(app);
  const siteName = opts.site ?? 'default';
  const state: UnifiSimState = {
    apiKey: opts.apiKey ?? 'lab-unifi-api-key',
    keyAccess: opts.keyAccess ?? 'full',
    sites: new Map([[siteName, buildSite(siteName, opts)]]),
    writes: 0,
  };
  const siteOf = (name?: string) => state.sites.get(name ?? siteName);

  const deployment = opts.deployment ?? 'unifi-os';
  const auth = unifiAuth({ deployment, apiKey: state.apiKey, login: opts.login, keyAccess: () => state.keyAccess });
  auth.mountLogin(app);
  const api = new Hono<SiteEnv>();
  api.use('*', (c, next) => auth.require(c, next));
  api.use('/s/:site/*', async function siteContext(c, next) {
    const site = state.sites.get(c.req.param('site'));
    if (!site) return apiError(c, 400, 'api.err.NoSiteContext');
    c.set('site', site);
    return next();
  });
  mountRoutes(
    api,
    restRoutes(() => (state.writes += 1)),
  );
  api.all('*', (c) => apiError(c, 404, 'api.err.NotFound'));
  app.route(deployment === 'self-hosted' ? '/api' : '/proxy/network/api', api);

  app.post('/__lab/associate', (c) => associate(c, siteOf));

  return {
    app,
    state,
    faults,
    auth,
    wlan: (ssid, site) => siteOf(site)?.wlans.find((w) => w.name === ssid),
    network: (name, site) => siteOf(site)?.networks.find((n) => n.name === name),
  };
}
