import { randomBytes } from 'node:crypto';

/**
 * The controller objects the simulator keeps, in the field names of the Network application's
 * `rest/networkconf` and `rest/wlanconf` collections (see index.ts for the sources).
 */
export interface NetworkConf {
  _id: string;
  site_id: string;
  name: string;
  purpose: 'corporate' | 'vlan-only' | 'guest';
  enabled: boolean;
  vlan_enabled: boolean;
  vlan?: number;
  ip_subnet?: string;
}

/** One private pre-shared key of a WLAN: a password and the network it places clients on, nothing more. */
export interface PpskEntry {
  password: string;
  networkconf_id: string;
}

/** The whole field list of a PPSK entry (go-unifi `WLANPrivatePresharedKeys`). */
const PPSK_FIELDS = new Set(['password', 'networkconf_id']);

export interface WlanConf {
  _id: string;
  site_id: string;
  name: string;
  enabled: boolean;
  security: 'wpapsk';
  wpa_mode: 'wpa2';
  wpa_enc: 'ccmp';
  x_passphrase: string;
  networkconf_id: string;
  usergroup_id: string;
  wlan_band: 'both';
  hide_ssid: boolean;
  private_preshared_keys_enabled: boolean;
  private_preshared_keys: PpskEntry[];
  /** The WLAN's MAC filter: with `allow`, only the listed clients associate; with `deny`, all but them. */
  mac_filter_enabled: boolean;
  mac_filter_policy: 'allow' | 'deny';
  mac_filter_list: string[];
  [field: string]: unknown;
}

/**
 * wlanconf's field list (go-unifi's generated `WLAN`, from the controller's own field definitions,
 * plus the PPSK fields of Network 7.5): a PUT naming any other field is refused with that field,
 * so an adapter that invents one fails here instead of on a site.
 */
const WLAN_FIELDS = new Set([
  '_id',
  'site_id',
  'attr_hidden',
  'attr_hidden_id',
  'attr_no_delete',
  'attr_no_edit',
  'ap_group_ids',
  'auth_cache',
  'b_supported',
  'bc_filter_enabled',
  'bc_filter_list',
  'bss_transition',
  'country_beacon',
  'dpi_enabled',
  'dpigroup_id',
  'dtim_mode',
  'dtim_na',
  'dtim_ng',
  'element_adopt',
  'enabled',
  'fast_roaming_enabled',
  'group_rekey',
  'hide_ssid',
  'hotspot2conf_enabled',
  'hotspot2conf_id',
  'iapp_enabled',
  'is_guest',
  'l2_isolation',
  'log_level',
  'mac_filter_enabled',
  'mac_filter_list',
  'mac_filter_policy',
  'mcastenhance_enabled',
  'name',
  'name_combine_enabled',
  'name_combine_suffix',
  'networkconf_id',
  'no2ghz_oui',
  'p2p',
  'p2p_cross_connect',
  'pmf_cipher',
  'pmf_mode',
  'priority',
  'proxy_arp',
  'radius_das_enabled',
  'radius_filter_id_enabled',
  'radius_mac_auth_enabled',
  'radius_macacl_empty_password',
  'radius_macacl_format',
  'radiusprofile_id',
  'roam_cluster_id',
  'rrm_enabled',
  'sae_anti_clogging',
  'sae_groups',
  'sae_psk',
  'sae_psk_vlan_required',
  'sae_sync',
  'schedule',
  'schedule_enabled',
  'schedule_reversed',
  'schedule_with_duration',
  'security',
  'tdls_prohibit',
  'uapsd_enabled',
  'usergroup_id',
  'vlan',
  'vlan_enabled',
  'wep_idx',
  'wlan_band',
  'wlangroup_id',
  'wpa3_enhanced_192',
  'wpa3_fast_roaming',
  'wpa3_support',
  'wpa3_transition',
  'wpa_enc',
  'wpa_mode',
  'wpa_psk_radius',
  'x_iapp_key',
  'x_passphrase',
  'x_wep',
  'private_preshared_keys',
  'private_preshared_keys_enabled',
]);

export interface UnifiSite {
  _id: string;
  name: string;
  networks: NetworkConf[];
  wlans: WlanConf[];
  /**
   * A lab fault: ids of networks a PPSK entry may not name, though `rest/networkconf` still lists
   * them, as when the network is deleted between a client's read and its write (the controller
   * refuses the entry's `networkconf_id`, and with it the whole PUT).
   */
  refusedNetworks?: Set<string>;
}

/** A Mongo ObjectId-shaped id, as every controller object carries in `_id`. */
export function objectId(): string {
  return randomBytes(12).toString('hex');
}

/** Field patterns as the controller publishes them for wlanconf (go-unifi's generated fields). */
export const PATTERNS = {
  password: /^[\x20-\x7e]{8,255}$/,
  x_passphrase: /^(?:[\x20-\x7e]{8,255}|[0-9a-fA-F]{64})$/,
  name: /^.{1,32}$/,
  // The colon form only: a hyphenated or bare MAC is refused, not read.
  mac_filter_list: /^([0-9A-Fa-f]{2}:){5}([0-9A-Fa-f]{2})$/,
  mac_filter_policy: /^(?:allow|deny)$/,
} as const;

export interface Refusal {
  field: string;
  pattern?: string;
}

/**
 * Check a PUT body against the WLAN it would change. Returns the first refused field, the way
 * the controller reports one validationError per answer.
 */
export function refuseWlanUpdate(site: UnifiSite, current: WlanConf, body: Record<string, unknown>): Refusal | undefined {
  const networkIds = new Set(site.networks.map((n) => n._id));
  const unknownField = Object.keys(body).find((f) => !WLAN_FIELDS.has(f));
  if (unknownField !== undefined) return { field: unknownField };
  if ('name' in body && (typeof body.name !== 'string' || !PATTERNS.name.test(body.name))) {
    return { field: 'name', pattern: '.{1,32}' };
  }
  if ('x_passphrase' in body && (typeof body.x_passphrase !== 'string' || !PATTERNS.x_passphrase.test(body.x_passphrase))) {
    return { field: 'x_passphrase', pattern: '[\\x20-\\x7E]{8,255}|[0-9a-fA-F]{64}' };
  }
  if ('networkconf_id' in body && (typeof body.networkconf_id !== 'string' || !networkIds.has(body.networkconf_id))) {
    return { field: 'networkconf_id' };
  }
  for (const flag of ['enabled', 'private_preshared_keys_enabled', 'hide_ssid', 'mac_filter_enabled']) {
    if (flag in body && typeof body[flag] !== 'boolean') return { field: flag, pattern: 'true|false' };
  }
  if ('mac_filter_policy' in body && (typeof body.mac_filter_policy !== 'string' || !PATTERNS.mac_filter_policy.test(body.mac_filter_policy))) {
    return { field: 'mac_filter_policy', pattern: 'allow|deny' };
  }
  if ('mac_filter_list' in body) {
    const list = body.mac_filter_list;
    if (!Array.isArray(list)) return { field: 'mac_filter_list' };
    if (list.some((m) => typeof m !== 'string' || !PATTERNS.mac_filter_list.test(m)))
      return { field: 'mac_filter_list', pattern: '^([0-9A-Fa-f]{2}:){5}([0-9A-Fa-f]{2})$' };
  }
  if ('private_preshared_keys' in body) {
    const list = body.private_preshared_keys;
    if (!Array.isArray(list)) return { field: 'private_preshared_keys' };
    const seen = new Set<string>();
    for (const e of list as unknown[]) {
      const entry = e as Record<string, unknown> | null;
      if (!entry || typeof entry !== 'object') return { field: 'private_preshared_keys' };
      if (typeof entry.password !== 'string' || !PATTERNS.password.test(entry.password)) {
        return { field: 'password', pattern: '[\\x20-\\x7E]{8,255}' };
      }
      if (typeof entry.networkconf_id !== 'string' || !networkIds.has(entry.networkconf_id) || site.refusedNetworks?.has(entry.networkconf_id)) {
        return { field: 'networkconf_id' };
      }
      const unknown = Object.keys(entry).find((f) => !PPSK_FIELDS.has(f));
      if (unknown !== undefined) return { field: unknown };
      // A password decides the client's network, so one password can stand only once per WLAN.
      if (seen.has(entry.password)) return { field: 'private_preshared_keys' };
      seen.add(entry.password);
    }
  }
  const enabled = 'private_preshared_keys_enabled' in body ? body.private_preshared_keys_enabled : current.private_preshared_keys_enabled;
  const keys = 'private_preshared_keys' in body ? (body.private_preshared_keys as unknown[]) : current.private_preshared_keys;
  // The behaviour the service is built around: an enabled PPSK list can never be empty.
  if (enabled === true && keys.length === 0) return { field: 'private_preshared_keys' };
  return undefined;
}

/** Copy the accepted fields of a PUT body onto the WLAN (the controller merges partial bodies). */
export function applyWlanUpdate(current: WlanConf, body: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(body)) {
    if (field === '_id' || field === 'site_id') continue;
    if (field === 'private_preshared_keys') {
      current.private_preshared_keys = (value as PpskEntry[]).map((e) => ({ password: e.password, networkconf_id: e.networkconf_id }));
    } else if (field === 'mac_filter_list') {
      current.mac_filter_list = [...(value as string[])];
    } else {
      current[field] = value;
    }
  }
}
