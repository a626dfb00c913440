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
 * Lab assumptions, not taken from a document: the exact refusal of an enabled, empty PPSK list
 * (reported here as an InvalidValue on `private_preshared_keys`), the refusal of a password
 * repeated in one WLAN, and the refusal of unknown entry fields above.
 *
 * Lab-only route (no real controller serves `/__lab`): `POST /__lab/associate {ssid, psk, mac}`
 * answers `{vlan, network}` when a client with that key would be admitted, else 403. The key alone
 * decides, whatever the client's MAC, as on the controller.
 */
import { Hono, type Context } from 'hono';
import { withFaults, type Faults } from '../faults.js';
import { unifiAuth, type UnifiAuth, type UnifiDeployment } from './auth.js';
import {
  applyWlanUpdate,
  objectId,
  refuseWlanUpdate,
  type NetworkConf,
  type UnifiSite,
  type WlanConf,
} from './model.js';

export * from './model.js';

export interface UnifiSimulatorOptions {
  /** `unifi-os` (default): a console, the API under `/proxy/network`; `self-hosted`: under `/api`, logins only. */
  deployment?: UnifiDeployment;
  /** The key clients present in `X-API-KEY` (a console only). */
  apiKey?: string;
  /** The local admin a client may log in as. */
  login?: { username: string; password: string };
  /** Short site name used in paths (`api/s/<site>`). */
  site?: string;
  networks?: Array<{ name: string; vlan?: number; purpose?: NetworkConf['purpose']; subnet?: string }>;
  /** WLANs by SSID; `network` names the WLAN's own network. PPSK stays off unless keys are given. */
  wlans?: Array<{ ssid: string; network: string; passphrase?: string; ppsk?: Array<{ password: string; network: string }> }>;
}

export interface UnifiSimState {
  apiKey: string;
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

const DEFAULT_NETWORKS: NonNullable<UnifiSimulatorOptions['networks']> = [
  { name: 'Default', purpose: 'corporate', subnet: '192.168.1.1/24' },
  { name: 'tenant-devices', vlan: 40, purpose: 'vlan-only' },
  { name: 'tenant-dev', vlan: 41, purpose: 'vlan-only' },
  { name: 'blackhole', vlan: 4000, purpose: 'vlan-only' },
];

const DEFAULT_WLANS: NonNullable<UnifiSimulatorOptions['wlans']> = [
  { ssid: 'lab-devices', network: 'tenant-devices' },
  { ssid: 'lab-dev', network: 'tenant-dev' },
];

function buildSite(name: string, opts: UnifiSimulatorOptions): UnifiSite {
  const siteId = objectId();
  const networks: NetworkConf[] = (opts.networks ?? DEFAULT_NETWORKS).map((n) => ({
    _id: objectId(),
    site_id: siteId,
    name: n.name,
    purpose: n.purpose ?? (n.vlan === undefined ? 'corporate' : 'vlan-only'),
    enabled: true,
    vlan_enabled: n.vlan !== undefined,
    ...(n.vlan !== undefined ? { vlan: n.vlan } : {}),
    ...(n.subnet ? { ip_subnet: n.subnet } : {}),
  }));
  const netId = (netName: string): string => {
    const net = networks.find((n) => n.name === netName);
    if (!net) throw new Error(`unifi simulator: network ${netName} is not configured`);
    return net._id;
  };
  const wlans: WlanConf[] = (opts.wlans ?? DEFAULT_WLANS).map((w) => ({
    _id: objectId(),
    site_id: siteId,
    name: w.ssid,
    enabled: true,
    security: 'wpapsk',
    wpa_mode: 'wpa2',
    wpa_enc: 'ccmp',
    x_passphrase: w.passphrase ?? objectId(),
    networkconf_id: netId(w.network),
    usergroup_id: objectId(),
    wlan_band: 'both',
    hide_ssid: false,
    private_preshared_keys_enabled: (w.ppsk?.length ?? 0) > 0,
    private_preshared_keys: (w.ppsk ?? []).map((k) => ({ password: k.password, networkconf_id: netId(k.network) })),
  }));
  return { _id: siteId, name, networks, wlans };
}

/** Client MACs as a station reports them, in any common notation; the simulator's own reading. */
function clientMac(text: string): string | undefined {
  const hex = text.replace(/[:.-]/g, '').toLowerCase();
  return /^[0-9a-f]{12}$/.test(hex) ? hex.match(/../g)!.join(':') : undefined;
}

const ok = (c: Context, data: unknown[]) => c.json({ meta: { rc: 'ok' }, data });
const apiError = (c: Context, status: 400 | 401 | 404, msg: string) => c.json({ meta: { rc: 'error', msg }, data: [] }, status);

export function createUnifiSimulator(opts: UnifiSimulatorOptions = {}): UnifiSimulator {
  const app = new Hono();
  const faults = withFaults(app);
  const siteName = opts.site ?? 'default';
  const state: UnifiSimState = {
    apiKey: opts.apiKey ?? 'lab-unifi-api-key',
    sites: new Map([[siteName, buildSite(siteName, opts)]]),
    writes: 0,
  };

  const deployment = opts.deployment ?? 'unifi-os';
  const auth = unifiAuth({ deployment, apiKey: state.apiKey, login: opts.login });
  auth.mountLogin(app);
  const api = new Hono<{ Variables: { site: UnifiSite } }>();
  api.use('*', (c, next) => auth.require(c, next));
  api.use('/s/:site/*', async function siteContext(c, next) {
    const site = state.sites.get(c.req.param('site'));
    if (!site) return apiError(c, 400, 'api.err.NoSiteContext');
    c.set('site', site);
    return next();
  });

  api.get('/s/:site/rest/networkconf', (c) => ok(c, c.get('site').networks));
  api.get('/s/:site/rest/networkconf/:id', (c) => {
    const net = c.get('site').networks.find((n) => n._id === c.req.param('id'));
    return net ? ok(c, [net]) : apiError(c, 400, 'api.err.IdInvalid');
  });
  api.get('/s/:site/rest/wlanconf', (c) => ok(c, c.get('site').wlans));
  api.get('/s/:site/rest/wlanconf/:id', (c) => {
    const wlan = c.get('site').wlans.find((w) => w._id === c.req.param('id'));
    return wlan ? ok(c, [wlan]) : apiError(c, 400, 'api.err.IdInvalid');
  });
  api.put('/s/:site/rest/wlanconf/:id', async (c) => {
    const site = c.get('site');
    const wlan = site.wlans.find((w) => w._id === c.req.param('id'));
    if (!wlan) return apiError(c, 400, 'api.err.IdInvalid');
    const body = (await c.req.json().catch(() => undefined)) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return apiError(c, 400, 'api.err.InvalidPayload');
    const refusal = refuseWlanUpdate(site, wlan, body as Record<string, unknown>);
    if (refusal) {
      return c.json(
        {
          meta: { rc: 'error', msg: 'api.err.InvalidPayload' },
          data: [{ rc: 'error', msg: 'api.err.InvalidValue', validationError: refusal }],
        },
        400,
      );
    }
    applyWlanUpdate(wlan, body as Record<string, unknown>);
    state.writes += 1;
    return ok(c, [wlan]);
  });
  api.all('*', (c) => apiError(c, 404, 'api.err.NotFound'));
  app.route(deployment === 'self-hosted' ? '/api' : '/proxy/network/api', api);

  app.post('/__lab/associate', async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as { ssid?: unknown; psk?: unknown; mac?: unknown; site?: unknown };
    const mac = typeof b.mac === 'string' ? clientMac(b.mac) : undefined;
    if (typeof b.ssid !== 'string' || typeof b.psk !== 'string' || !mac) {
      return c.json({ error: 'ssid, psk and mac are required' }, 400);
    }
    const site = state.sites.get(typeof b.site === 'string' ? b.site : siteName);
    const wlan = site?.wlans.find((w) => w.name === b.ssid && w.enabled);
    if (!site || !wlan) return c.json({ error: 'no such ssid' }, 404);
    let networkId: string | undefined;
    if (wlan.private_preshared_keys_enabled) {
      const entry = wlan.private_preshared_keys.find((e) => e.password === b.psk);
      if (entry) networkId = entry.networkconf_id;
    } else if (wlan.x_passphrase === b.psk) {
      networkId = wlan.networkconf_id;
    }
    const net = site.networks.find((n) => n._id === networkId);
    if (!net) return c.json({ error: 'association refused' }, 403);
    return c.json({ vlan: net.vlan_enabled ? (net.vlan ?? null) : null, network: net.name });
  });

  const siteOf = (name?: string) => state.sites.get(name ?? siteName);
  return {
    app,
    state,
    faults,
    auth,
    wlan: (ssid, site) => siteOf(site)?.wlans.find((w) => w.name === ssid),
    network: (name, site) => siteOf(site)?.networks.find((n) => n.name === name),
  };
}
