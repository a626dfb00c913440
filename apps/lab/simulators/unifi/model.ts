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
  [field: string]: unknown;
}

export interface UnifiSite {
  _id: string;
  name: string;
  networks: NetworkConf[];
  wlans: WlanConf[];
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
  if ('name' in body && (typeof body.name !== 'string' || !PATTERNS.name.test(body.name))) {
    return { field: 'name', pattern: '.{1,32}' };
  }
  if ('x_passphrase' in body && (typeof body.x_passphrase !== 'string' || !PATTERNS.x_passphrase.test(body.x_passphrase))) {
    return { field: 'x_passphrase', pattern: '[\\x20-\\x7E]{8,255}|[0-9a-fA-F]{64}' };
  }
  if ('networkconf_id' in body && (typeof body.networkconf_id !== 'string' || !networkIds.has(body.networkconf_id))) {
    return { field: 'networkconf_id' };
  }
  for (const flag of ['enabled', 'private_preshared_keys_enabled', 'hide_ssid']) {
    if (flag in body && typeof body[flag] !== 'boolean') return { field: flag, pattern: 'true|false' };
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
      if (typeof entry.networkconf_id !== 'string' || !networkIds.has(entry.networkconf_id)) {
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
    } else {
      current[field] = value;
    }
  }
}
