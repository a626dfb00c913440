import { formatIPv4, parseCidr } from './address-ranges.js';

/**
 * The isolation check's canary pair (issue 49): two tenants the service keeps for itself, created
 * through the normal create run on the check's first use. Each holds one object of every kind
 * that has a credential, and the check tries each canary's credentials against the other's
 * objects. Reserved: no caller may create, delete or reconcile them, and the tenant list and the
 * sweep leave them out unless asked (docs/production.md, "The isolation check").
 *
 * The names fit the tenant pattern (`^[a-z][a-z0-9]{0,7}$`) so they take the same path as any
 * tenant's; no dash, so they cannot collide with a site host's label either.
 */
export const CANARY_NAMES = ['canarya', 'canaryb'] as const;

export type CanaryName = (typeof CANARY_NAMES)[number];

export function isCanary(name: string): name is CanaryName {
  return (CANARY_NAMES as readonly string[]).includes(name);
}

/** The broker account each canary holds: it may publish and subscribe under `<canary>/probe/`. */
export const CANARY_BROKER_ACCOUNT = 'probe';
/** Relative to the tenant, as a broker account's request names its patterns. */
export const CANARY_BROKER_TOPICS = 'probe/#';

/** Where in its own state prefix, record set and log stream a canary's probes write, and clean. */
export const CANARY_PROBE_LABEL = 'isolation-probe';

/**
 * The name each canary publishes (`probe.<canary zone>`, a Record through the record run), and the
 * name of its Wi-Fi key and of its certificate: the objects the other canary's credentials are
 * tried on.
 */
export const CANARY_OBJECT = 'probe';

/** What the canary's record points at: a host of its own subnet, below the workloads' `.10` and up. */
export function canaryRecordAddress(subnet: string): string {
  return formatIPv4(parseCidr(subnet)!.first + 9);
}

/**
 * The trust class of each canary's Wi-Fi key, or undefined when the site serves no class with a
 * Wi-Fi network. `canarya` takes the first such class by name; `canaryb` the first whose network
 * is another (so a key mapped onto the other canary's network can be seen), else the same one:
 * where every class shares one network, two tenants' keys place clients on the same VLAN by the
 * site's design, and the probe can only show that each key stands where it should.
 */
export function canaryWifiClasses(classes: Record<string, { ssid?: string; vlan?: string }>): Record<CanaryName, string> | undefined {
  const withWifi = Object.keys(classes)
    .sort()
    .filter((c) => classes[c]!.ssid && classes[c]!.vlan);
  const a = withWifi[0];
  if (a === undefined) return undefined;
  const b = withWifi.find((c) => classes[c]!.vlan !== classes[a]!.vlan) ?? a;
  return { canarya: a, canaryb: b };
}
