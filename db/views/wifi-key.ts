import type { SealedWifiKey, WifiKeyView } from '../../core/views/wifi-key.js';
import { stamps } from '../../core/wire-time.js';
import type { wifiKeys } from '../schema/index.js';
import { open, openValue, sealValue, type SealKeys } from '../seal.js';

type WifiKeyRow = typeof wifiKeys.$inferSelect;

/** A key for Temporal: the psk sealed with the site's secrets key. */
export function sealedWifiKey(keys: SealKeys, row: WifiKeyRow, psk?: string): SealedWifiKey {
  const { psk: _clear, ...view } = viewWifiKey(keys, row);
  return { ...view, ...(psk !== undefined ? { psk: sealValue(keys, psk) } : {}) };
}

/** The key as the API answers it: the psk opened. */
export function revealWifiKey(keys: SealKeys, key: SealedWifiKey): WifiKeyView {
  const { psk, ...view } = key;
  const clear = openValue(keys, psk);
  return { ...view, ...(clear !== undefined ? { psk: clear } : {}) };
}

export function viewWifiKey(keys: SealKeys, row: WifiKeyRow, psk?: string): WifiKeyView {
  return {
    name: row.name,
    trust_class: row.trustClass,
    ssid: row.ssid,
    ...(row.mac ? { mac: row.mac } : {}),
    secrets_stored: open(keys, row.psk) !== undefined,
    ...stamps(row),
    ...(psk !== undefined ? { psk } : {}),
  };
}
