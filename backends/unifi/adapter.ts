import type { ObjectOutcome } from '../../core/backend-outcome.js';
import type { ChangeResult } from '../../core/backend-outcome.js';

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
   * The client the key is bound to (lowercase colon form): it stands on the WLAN's MAC allow-list
   * beside the key, and the WLAN's filter admits only the listed clients. Only for a WLAN the
   * service keeps for bound keys (docs/decisions.md, "Wireless controller").
   */
  mac?: string;
  /** MACs no key of the WLAN is bound to any more: they leave its allow-list in the same write. */
  releaseMacs?: string[];
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
  /** The key's bound client, when no other key of the WLAN is bound to it: it leaves the allow-list with the key. */
  releaseMac?: string;
}

export interface WifiKeyState {
  ssid: string;
  keyId: string;
  /** The controller's id and name of the network the key places clients on. */
  networkId: string;
  networkName?: string;
  mac?: string;
}

/** A WLAN and the network a password places its clients on there, as the controller holds them. */
export interface WifiPlace {
  ssid: string;
  networkId: string;
  networkName?: string;
  /** The network's VLAN, when it has one. */
  vlan?: number;
}

/** One caller's change to a WLAN: what `ensureKeys` (not a plan) or `remove` does. */
export type WifiChange = { kind: 'ensure'; specs: WifiKeySpec[] } | { kind: 'remove'; ref: WifiKeyRef };

/** A kind of controller, and how to connect to it. */
export interface WifiController<Options> {
  connect(opts: Options): WifiAdapter;
}

export interface WifiAdapter {
  observe(ref: WifiKeyRef): Promise<WifiKeyState | undefined>;
  /** Adds the key, or corrects its network, MAC binding or psk; drops `replaces` entries and `releaseMacs`. */
  ensure(spec: WifiKeySpec): Promise<ObjectOutcome[]>;
  /**
   * Every key of one SSID from one read of the controller and at most one write (a reconcile);
   * with `plan`, the same outcomes and no write.
   */
  ensureKeys(ssid: string, specs: WifiKeySpec[], plan: boolean): Promise<ObjectOutcome[]>;
  /**
   * Everywhere a password places clients, from one read of the WLANs and the networks: each WLAN
   * whose private keys hold it (with that entry's network) or whose own passphrase it is (with the
   * WLAN's network). What the isolation check's Wi-Fi probe reads; the password is never in it.
   */
  placesOf(psk: string): Promise<WifiPlace[]>;
  /** Revokes the key (and its `releaseMac`); when it was the WLAN's last, leaves one unusable placeholder entry. */
  remove(ref: WifiKeyRef): Promise<void>;
  /**
   * Several changes to one WLAN in one write of its key list (group commit): one result per
   * change, in order, each confirmed in the controller's own answer; a change the controller
   * refuses fails alone. A failure of the write as such throws.
   */
  write(ssid: string, changes: WifiChange[]): Promise<Array<ChangeResult<ObjectOutcome[]>>>;
}
