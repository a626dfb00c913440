import type { Sealed } from '../sealed.js';

/** The Wi-Fi key object of the wire contract; `psk` only in the answers that issue or restore it. */
export interface WifiKeyView {
  name: string;
  trust_class: string;
  ssid: string;
  /** The one client the key is bound to (admission keys issued for a MAC). */
  mac?: string;
  /** False when the stored psk cannot be opened: issue the key again with the tenant's psk. */
  secrets_stored: boolean;
  created_at: string;
  updated_at: string;
  psk?: string;
}

/** The name of the key an admission issues on the tenant developer network. */
export const ADMISSION_KEY = 'admission';
/** What an admission key reports as its class: the developer network is not a site trust class. */
export const ADMISSION_CLASS = 'developer';

/** The controller-side id of a key, which salts its fingerprint. */
export const wifiKeyId = (tenant: string, name: string) => `${tenant}/${name}`;

/** A key as it crosses Temporal: its psk, when the answer carries one, sealed (core/sealed.ts). */
export type SealedWifiKey = Omit<WifiKeyView, 'psk'> & { psk?: Sealed<string> };

/** A key's name: 1-32 lowercase alphanumerics or dashes, not starting or ending with a dash. */
// No lookahead: published in openapi.yaml, where RE2-style engines must read it (see WORKLOAD_NAME).
export const WIFI_KEY_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
