import { ApplicationFailure } from '@temporalio/activity';
import { CANARY_OBJECT } from '../../core/canaries.js';
import { wifiOf } from '../../core/trust-class.js';
import type { ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { getWifiKey } from '../../db/queries/wifi-keys.js';
import { open } from '../../db/seal.js';
import type { WifiPlace } from '../../backends/unifi/adapter.js';
import type { ActivityDeps } from '../deps.js';
import { verdict, type Attempt } from './verdict.js';

/** The network a place is on, by the class's network reference (a controller name or id). */
const onNetwork = (network: string) => (p: WifiPlace) => p.networkId === network || p.networkName === network;
const vlanOf = (places: WifiPlace[]) => {
  const vlan = places.find((p) => p.vlan !== undefined)?.vlan;
  return vlan !== undefined ? ` (VLAN ${vlan})` : '';
};
const listed = (values: (string | undefined)[]) => [...new Set(values.filter((v) => v !== undefined))].join(', ');

/** A network, and the WLANs through which the key stands on it. */
function onNetworkAttempt(whose: string, network: string, places: WifiPlace[]): Attempt {
  const reached = places.filter(onNetwork(network));
  const through = reached.length ? ` through ${listed(reached.map((p) => p.ssid))}` : '';
  return { what: `key on ${whose} network ${network}${vlanOf(reached)}${through}`, reached: reached.length > 0 };
}

/**
 * `wifi.isolation-probe`: where the credential's Wi-Fi key places clients, read from the wireless
 * controller's own API as the service's adapter reads it (every WLAN's private keys and passphrase,
 * and the networks), against where each canary's key stands by its trust class. On its own objects
 * the key must stand on its WLAN, on its network. On the other canary's it must stand on neither
 * the other's WLAN nor the other's network: what an admin opens by mapping a key onto another VLAN,
 * or by copying it onto another WLAN. Read only. The psk is compared here and written nowhere: the
 * attempts name WLANs and networks only.
 */
export async function wifiProbe(deps: ActivityDeps, input: ProbeInput): Promise<ProbeAnswer> {
  const [fromKey, toKey] = await Promise.all([getWifiKey(deps.db, input.credentialOf, CANARY_OBJECT), getWifiKey(deps.db, input.objectOf, CANARY_OBJECT)]);
  const psk = open(deps.keys, fromKey?.psk);
  const own = fromKey && wifiOf(deps.site.trustClasses, fromKey.trustClass);
  const target = toKey && wifiOf(deps.site.trustClasses, toKey.trustClass);
  if (!psk || !own || !target) {
    // The check made both keys first; missing here, something removed them (or the site's classes changed) meanwhile.
    throw ApplicationFailure.nonRetryable(
      `canary ${input.credentialOf}'s or ${input.objectOf}'s Wi-Fi key is not held, or its trust class has no Wi-Fi network`,
      'CanaryMissing',
    );
  }
  const places = await deps.ports.wifi!.placesOf(psk);
  if (input.credentialOf === input.objectOf) {
    const mine = places.filter((p) => p.ssid === own.ssid && onNetwork(own.vlan)(p));
    return verdict('wifi', 'Wi-Fi key', input, [{ what: `key on its network ${own.vlan}${vlanOf(mine)} through ${own.ssid}`, reached: mine.length > 0 }]);
  }
  const whose = `canary ${input.objectOf}'s`;
  const attempts: Attempt[] = [];
  if (target.vlan !== own.vlan) attempts.push(onNetworkAttempt(whose, target.vlan, places));
  if (target.ssid !== own.ssid) {
    const reached = places.filter((p) => p.ssid === target.ssid);
    const onto = reached.length ? ` onto ${listed(reached.map((p) => p.networkName ?? p.networkId))}` : '';
    attempts.push({ what: `key on ${whose} WLAN ${target.ssid}${onto}`, reached: reached.length > 0 });
  }
  if (attempts.length === 0) {
    // Both classes place clients on one network of one WLAN: the site's design, not a crossing.
    attempts.push({
      what: `key on a WLAN or network of ${whose} apart from its own: none, both keys are for network ${own.vlan} through ${own.ssid}`,
      reached: false,
    });
  }
  return verdict('wifi', 'Wi-Fi key', input, attempts);
}
