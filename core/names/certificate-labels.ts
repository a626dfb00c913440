/**
 * The names a tenant certificate may carry. The certificate name and each entry of `names` are
 * labels: the issuer appends the tenant zone `<tenant>.<site domain>` to each. Pure; every refusal
 * is a reason fit for a 400 (it quotes only the caller's own input).
 */
import { isIP } from 'node:net';
import { aLabelReason } from './a-label.js';

/** The spec's pattern (published in openapi.yaml); `certificateLabelReason` is what it leaves out. */
export const CERTIFICATE_NAME = /^[a-z][a-z0-9-]{0,19}$/;
export const MAX_NAMES = 50;
/** RFC 1035 preferred syntax (letters, digits, inner dashes; 1-63), lowercase. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function tenantZone(tenant: string, siteDomain: string): string {
  return `${tenant}.${siteDomain.toLowerCase().replace(/\.$/, '')}`;
}

/**
 * What "one DNS label" adds to a name that matches the pattern: no final dash (RFC 1035), and an
 * `xn--` label must be an A-label.
 */
export function certificateLabelReason(name: string): string | null {
  return name.endsWith('-') ? 'must not end with a dash (one DNS label)' : aLabelReason(name);
}

export function certificateNameReason(name: string): string | null {
  if (!CERTIFICATE_NAME.test(name)) return `certificate name ${JSON.stringify(name)} must match ${CERTIFICATE_NAME.source}`;
  const reason = certificateLabelReason(name);
  return reason ? `certificate name ${JSON.stringify(name)}: ${reason}` : null;
}

/** Why `names` is refused, or null. `zone` is tenantZone(). */
export function namesReason(names: readonly string[], zone: string): string | null {
  if (names.length > MAX_NAMES) return `names holds more than ${MAX_NAMES} labels`;
  for (const label of names) {
    const reason = labelReason(label, zone);
    if (reason) return `names entry ${JSON.stringify(label)}: ${reason}`;
  }
  return null;
}

function labelReason(label: string, zone: string): string | null {
  if (label.length === 0) return 'empty label';
  if (label.includes('*')) return 'wildcards are not allowed';
  const bare = label.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0 || /^\d+(\.\d+){3}(\/\d+)?$/.test(label)) return 'addresses are not allowed';
  if (label.includes('.')) {
    const name = label.toLowerCase().replace(/\.$/, '');
    if (name === zone || name.endsWith(`.${zone}`)) return `a name, not a label: give only the part before ".${zone}"`;
    return `a dot is not allowed: entries are labels in ${zone}, and a name outside it cannot be certified`;
  }
  if (label !== label.toLowerCase()) return 'labels are lowercase';
  if (label.length > 63) return 'longer than 63 characters';
  if (!LABEL.test(label)) return 'letters, digits and inner dashes only';
  const aLabel = aLabelReason(label);
  if (aLabel) return aLabel;
  if (label.length + 1 + zone.length > 253) return 'the name would be longer than 253 characters';
  return null;
}

/**
 * The DNS names of a certificate: `<certificate>.<zone>` first (it is also the common name), then
 * one per label, without repeats. Inputs must have passed the checks above.
 */
export function certificateDnsNames(certificate: string, zone: string, names: readonly string[]): string[] {
  const out = [`${certificate}.${zone}`];
  for (const label of names) {
    const name = `${label}.${zone}`;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
