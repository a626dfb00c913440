import type { CoreSite } from './site.js';
import { parseRange, type AddressRange } from './address-ranges.js';

/**
 * Trust classes are the site's (SITE_TRUST_CLASSES): a class decides a Wi-Fi key's SSID and VLAN
 * and a device address's range, so tenants never pick either. These answer what a class gives.
 */
type Classes = CoreSite['trustClasses'];

export function servedClasses(classes: Classes): string[] {
  return Object.keys(classes).sort();
}

/**
 * The 400 text for a class the site does not serve: it names the classes it does serve, and never
 * echoes the value sent (a caller's mistake may be a secret pasted into the wrong field).
 */
export function unservedReason(classes: Classes, _cls: string): string {
  const served = servedClasses(classes);
  return served.length === 0
    ? 'trust_class: not served at this site; it serves no trust classes'
    : `trust_class: not served at this site; it serves: ${served.join(', ')}`;
}

export function isServed(classes: Classes, cls: string): boolean {
  return Object.hasOwn(classes, cls);
}

/** The class's Wi-Fi network, or undefined when the class has none at this site. */
export function wifiOf(classes: Classes, cls: string): { ssid: string; vlan: string } | undefined {
  const c = isServed(classes, cls) ? classes[cls] : undefined;
  return c?.ssid && c.vlan ? { ssid: c.ssid, vlan: c.vlan } : undefined;
}

/** The class's tenant address range, or undefined when it has none (or a malformed one). */
export function rangeOf(classes: Classes, cls: string): AddressRange | undefined {
  const c = isServed(classes, cls) ? classes[cls] : undefined;
  return c?.range ? parseRange(c.range) : undefined;
}
