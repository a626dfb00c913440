import type { Context } from 'hono';
import type { UnifiSite } from './model.js';

/** Client MACs as a station reports them, in any common notation; the simulator's own reading. */
function clientMac(text: string): string | undefined {
  const hex = text.replace(/[:.-]/g, '').toLowerCase();
  return /^[0-9a-f]{12}$/.test(hex) ? hex.match(/../g)!.join(':') : undefined;
}

/**
 * `POST /__lab/associate {ssid, psk, mac, site?}`: the network a client with that key would be
 * placed on (`{vlan, network}`), else 403. The WLAN's MAC filter decides whether the client may
 * associate at all; then the key alone decides the network.
 */
export async function associate(c: Context, siteOf: (name?: string) => UnifiSite | undefined): Promise<Response> {
  const b = (await c.req.json().catch(() => ({}))) as { ssid?: unknown; psk?: unknown; mac?: unknown; site?: unknown };
  const mac = typeof b.mac === 'string' ? clientMac(b.mac) : undefined;
  if (typeof b.ssid !== 'string' || typeof b.psk !== 'string' || !mac) {
    return c.json({ error: 'ssid, psk and mac are required' }, 400);
  }
  const site = siteOf(typeof b.site === 'string' ? b.site : undefined);
  const wlan = site?.wlans.find((w) => w.name === b.ssid && w.enabled);
  if (!site || !wlan) return c.json({ error: 'no such ssid' }, 404);
  // The WLAN's MAC filter comes before any key: a client it keeps out never gets to present one.
  if (wlan.mac_filter_enabled) {
    const listed = wlan.mac_filter_list.some((m) => m.toLowerCase() === mac);
    if (listed !== (wlan.mac_filter_policy === 'allow')) return c.json({ error: 'association refused' }, 403);
  }
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
}
