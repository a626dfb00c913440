import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * A DNS label that starts `xn--` claims to be an IDNA A-label: the punycode form of a Unicode
 * label (RFC 5890 2.3.2.1). One that does not decode, or does not encode back to itself, is not a
 * label anyone can register or type; certifying or publishing it only misleads. Any other label
 * with dashes in its third and fourth positions is reserved for a future prefix like `xn--`
 * (RFC 5890 2.3.1, "Reserved LDH labels"): certified or published today, it could mean something
 * else tomorrow. Pure.
 */
export function aLabelReason(label: string): string | null {
  if (label.slice(2, 4) === '--' && !label.startsWith('xn--'))
    return 'dashes in the third and fourth positions are reserved (RFC 5890): only "xn--" labels have them';
  if (!label.startsWith('xn--')) return null;
  const unicode = domainToUnicode(label);
  // Node answers '' for punycode it cannot decode; a label that decodes to itself is no A-label.
  if (unicode === '' || unicode === label || domainToASCII(unicode) !== label) return 'an "xn--" label must be valid punycode (an IDNA A-label)';
  return null;
}
