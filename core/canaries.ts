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
