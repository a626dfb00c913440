import { objectId, type NetworkConf, type UnifiSite, type WlanConf } from './model.js';

/**
 * The site a simulator starts with: its networks (with VLANs) and WLANs as a controller would
 * hold them after an operator set them up; PPSK stays off unless keys are given.
 */
export interface SiteSeed {
  networks?: Array<{ name: string; vlan?: number; purpose?: NetworkConf['purpose']; subnet?: string }>;
  /** WLANs by SSID; `network` names the WLAN's own network. */
  wlans?: Array<{ ssid: string; network: string; passphrase?: string; ppsk?: Array<{ password: string; network: string }> }>;
}

const DEFAULT_NETWORKS: NonNullable<SiteSeed['networks']> = [
  { name: 'Default', purpose: 'corporate', subnet: '192.168.1.1/24' },
  { name: 'tenant-devices', vlan: 40, purpose: 'vlan-only' },
  { name: 'tenant-dev', vlan: 41, purpose: 'vlan-only' },
  { name: 'blackhole', vlan: 4000, purpose: 'vlan-only' },
];

const DEFAULT_WLANS: NonNullable<SiteSeed['wlans']> = [
  { ssid: 'lab-devices', network: 'tenant-devices' },
  { ssid: 'lab-dev', network: 'tenant-dev' },
];

export function buildSite(name: string, opts: SiteSeed): UnifiSite {
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
    // As a new WLAN has it: no filter, the controller's default policy, an empty list.
    mac_filter_enabled: false,
    mac_filter_policy: 'allow',
    mac_filter_list: [],
  }));
  return { _id: siteId, name, networks, wlans };
}
