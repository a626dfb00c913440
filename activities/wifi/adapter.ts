import type { ObjectOutcome } from '../ensure.js';

/**
 * Per-key Wi-Fi passwords with a VLAN each (UniFi PPSK semantics): one WLAN per trust class,
 * many keys in it, the key a client presents decides the network it lands on.
 */
export interface WifiKeySpec {
  /** The trust class's SSID. */
  ssid: string;
  /** The trust class's network, by controller name or id. Tenants never choose it. */
  vlanNetwork: string;
  /** The service's stable id for the key, `<tenant>/<name>`; it salts the fingerprint. */
  keyId: string;
  psk: string;
  /**
   * Binds the key to one client; any accepted MAC form. Only for an adapter whose controller can
   * (`bindsKeysToClients`): the others refuse a spec with a MAC rather than leave the key unbound.
   */
  mac?: string;
  /**
   * Fingerprints of passwords this key held before (a re-admission, or a restore with a psk
   * other than the one the controller holds): their entries are dropped in the same write, so
   * the earlier password stops working and the WLAN never passes through an empty list.
   */
  replaces?: string[];
}

/** Finds a key's entry without its psk: see pskFingerprint. */
export interface WifiKeyRef {
  ssid: string;
  keyId: string;
  fingerprint: string;
}

export interface WifiKeyState {
  ssid: string;
  keyId: string;
  /** The controller's id and name of the network the key places clients on. */
  networkId: string;
  networkName?: string;
  mac?: string;
}

/** What a kind of controller can do, known without connecting to it, and how to connect. */
export interface WifiController<Options> {
  /**
   * Whether the controller can bind one key to one client. UniFi's cannot (docs/decisions.md,
   * "Wireless controller"); the API refuses an admission's `mac` where this is false.
   */
  readonly bindsKeysToClients: boolean;
  connect(opts: Options): WifiAdapter;
}

export interface WifiAdapter {
  /** Its controller's `bindsKeysToClients`: ensure refuses a spec with a MAC where it is false. */
  readonly bindsKeysToClients: boolean;
  observe(ref: WifiKeyRef): Promise<WifiKeyState | undefined>;
  /** Adds the key, or corrects its network (and MAC binding, where bound) or psk; drops `replaces` entries. */
  ensure(spec: WifiKeySpec): Promise<ObjectOutcome[]>;
  /**
   * Every key of one SSID from one read of the controller and at most one write (a reconcile);
   * with `plan`, the same outcomes and no write.
   */
  ensureKeys(ssid: string, specs: WifiKeySpec[], plan: boolean): Promise<ObjectOutcome[]>;
  /** Revokes the key; when it was the WLAN's last, leaves one unusable placeholder entry. */
  remove(ref: WifiKeyRef): Promise<void>;
}
