import { parseCidr, parseRange, rangeFitsSubnet } from './address-ranges.js';
import { addressPlanProblems } from './identity.js';
import { vmidBaseProblem } from './vmid.js';

/**
 * What is wrong with a site configuration whose variables each parse on their own: identifier
 * ranges that collide or overflow, and backends configured by halves. A half-configured backend
 * used to be switched off in silence (or to log in with an empty password); the operator meant to
 * turn it on, so the service refuses to start instead. Messages name the variable, never a value.
 */
export interface SiteProblem {
  variable: string;
  message: string;
}

export type Env = Record<string, unknown>;

const NETWORK_VARIABLE = { supernet: 'SITE_TENANT_SUPERNET', vrfVniBase: 'SITE_VRF_VNI_BASE', vnetVniBase: 'SITE_VNET_VNI_BASE' } as const;

/** Whether a variable is set: an empty one is not. */
export const set = (v: unknown) => v !== undefined && v !== '';

export function siteProblems(e: Env): SiteProblem[] {
  const problems: SiteProblem[] = [];
  // A webhook without its secret would send bodies nobody can verify; a secret alone sends nothing.
  if (set(e.SITE_EVENTS_WEBHOOK_URL) !== set(e.SITE_EVENTS_WEBHOOK_SECRET)) {
    problems.push({
      variable: set(e.SITE_EVENTS_WEBHOOK_URL) ? 'SITE_EVENTS_WEBHOOK_SECRET' : 'SITE_EVENTS_WEBHOOK_URL',
      message: 'the events webhook needs both its URL and its secret',
    });
  }
  if (typeof e.SITE_TENANT_SUPERNET === 'string' && typeof e.SITE_VRF_VNI_BASE === 'number' && typeof e.SITE_VNET_VNI_BASE === 'number') {
    const network = { supernet: e.SITE_TENANT_SUPERNET, vrfVniBase: e.SITE_VRF_VNI_BASE, vnetVniBase: e.SITE_VNET_VNI_BASE };
    // The supernet's own shape is the schema's to report; here only how the bases fit together.
    for (const p of addressPlanProblems(network)) if (p.setting !== 'supernet') problems.push({ variable: NETWORK_VARIABLE[p.setting], message: p.reason });
  }
  for (const [cls, c] of Object.entries((e.SITE_TRUST_CLASSES ?? {}) as Record<string, { range?: string; ssid?: string; vlan?: string }>)) {
    if (c.range !== undefined && !parseRange(c.range)) {
      problems.push({ variable: 'SITE_TRUST_CLASSES', message: `class ${cls}: range must be first-last IPv4 addresses with first <= last` });
    }
    // A Wi-Fi network is an SSID and the VLAN its keys place clients on: one without the other serves no key.
    if ((c.ssid === undefined) !== (c.vlan === undefined)) {
      problems.push({
        variable: 'SITE_TRUST_CLASSES',
        message: `class ${cls}: ssid and vlan go together (a Wi-Fi network and the VLAN its keys place clients on)`,
      });
    }
  }
  if (typeof e.SITE_VMID_BASE === 'number') {
    const problem = vmidBaseProblem(e.SITE_VMID_BASE);
    if (problem) problems.push({ variable: 'SITE_VMID_BASE', message: problem });
  }
  return problems;
}

/** Settings that only work together: when the first is set, each of the others must be too. */
export function together(e: Env, rows: [string, string[]][]): SiteProblem[] {
  const problems: SiteProblem[] = [];
  for (const [variable, needs] of rows) {
    if (!set(e[variable])) continue;
    for (const other of needs) if (!set(e[other])) problems.push({ variable: other, message: `required when ${variable} is set` });
  }
  return problems;
}

/** One problem per variable, the first found: fixing it may settle the rest. */
export function dedupeProblems(problems: SiteProblem[]): SiteProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.variable) && seen.add(p.variable));
}

/**
 * The trust classes whose address range does not fit the device network's subnet (leaving out its
 * network and broadcast addresses): DHCP could never hand a device such an address. The subnet is
 * Kea's (`--check-backends` reads it), not a setting of the site's.
 */
export function trustClassRangeProblems(trustClasses: Record<string, { range?: string }>, subnet: string): string[] {
  const net = parseCidr(subnet);
  if (!net) return [`the device network's subnet ${subnet} is no IPv4 CIDR`];
  return Object.entries(trustClasses).flatMap(([cls, c]) => {
    const range = c.range === undefined ? undefined : parseRange(c.range);
    return range && !rangeFitsSubnet(range, net) ? [`trust class ${cls}: range ${c.range} is not inside the device network ${subnet}`] : [];
  });
}
