import { describe, it, expect } from 'vitest';
import { certificateDnsNames, certificateNameReason, namesReason, tenantZone, MAX_NAMES } from './certificate-labels.js';

const zone = tenantZone('acme', 'Site.Example.');

describe('certificate name', () => {
  it.each([
    ['one letter', 'a', null],
    ['letters, digits, dashes', 'web-01', null],
    ['twenty characters', 'a'.repeat(20), null],
    ['a dash inside', 'web-01-a', null],
    // Issue 27 item 7: the pattern allowed these, but the name is one DNS label (LDH rule, RFC 5891).
    ['a trailing dash', 'web-', /must not end with a dash/],
    ['a dash alone after the letter', 'a-', /must not end with a dash/],
    ['a valid A-label (bücher)', 'xn--bcher-kva', null],
    ['an xn-- label that is not punycode', 'xn--abc', /punycode/],
    ['xn-- and nothing', 'xn--', /must not end with a dash/],
    ['an xn-- label that is not punycode, with inner dashes', 'xn--a-ecp', /punycode/],
    ['twenty-one characters', 'a'.repeat(21), /must match/],
    ['starts with a digit', '1web', /must match/],
    ['uppercase', 'Web', /must match/],
    ['a dot', 'web.x', /must match/],
    ['empty', '', /must match/],
    ['underscore', 'web_1', /must match/],
  ])('%s: %j', (_reason, name, want) => {
    const got = certificateNameReason(name);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatch(want);
  });
});

describe('names (labels in the tenant zone)', () => {
  it('the zone is <tenant>.<site domain>, lowercase, without a final dot', () => {
    expect(zone).toBe('acme.site.example');
  });

  it.each([
    ['no names', [], null],
    ['plain labels', ['www', 'api-2', '0day'], null],
    ['a 63-character label', ['a'.repeat(63)], null],
    ['the most names allowed', Array.from({ length: MAX_NAMES }, (_, i) => `n${i}`), null],
    ['a dot', ['www.other'], /a dot is not allowed/],
    ['a full name inside the zone', ['www.acme.site.example'], /a name, not a label: give only the part before/],
    ['the zone itself', ['acme.site.example.'], /a name, not a label/],
    ['a name outside the zone', ['www.example.com'], /a dot is not allowed.*outside/],
    ['a wildcard', ['*'], /wildcards/],
    ['a wildcard label', ['*.acme.site.example'], /wildcards/],
    ['an IPv4 address', ['10.1.2.3'], /addresses/],
    ['an IPv6 address', ['fd00::1'], /addresses/],
    ['a bracketed IPv6 address', ['[::1]'], /addresses/],
    ['an empty label', [''], /empty label/],
    ['uppercase', ['WWW'], /lowercase/],
    ['a leading dash', ['-www'], /letters, digits and inner dashes/],
    ['a trailing dash', ['www-'], /letters, digits and inner dashes/],
    ['a valid A-label', ['xn--mnchen-3ya'], null],
    ['an xn-- label that is not punycode', ['xn--zz'], /names entry "xn--zz": .*punycode/],
    ['an xn-- label that is not punycode, with inner dashes', ['xn--a-ecp'], /punycode/],
    ['an underscore', ['_acme'], /letters, digits and inner dashes/],
    ['a 64-character label', ['a'.repeat(64)], /longer than 63/],
    ['too many', Array.from({ length: MAX_NAMES + 1 }, (_, i) => `n${i}`), /more than/],
    ['the first bad entry is named', ['ok', 'b@d'], /names entry "b@d"/],
  ])('%s', (_reason, names, want) => {
    const got = namesReason(names, zone);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatch(want);
  });

  it('refuses a name that would pass 253 characters', () => {
    const longZone = tenantZone('acme', `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.example`);
    expect(namesReason(['a'.repeat(63)], longZone)).toMatch(/253/);
  });
});

describe('certificate DNS names', () => {
  it.each([
    ['the certificate name comes first', 'web', ['www', 'api'], ['web.acme.site.example', 'www.acme.site.example', 'api.acme.site.example']],
    ['repeats collapse, the certificate name included', 'web', ['web', 'www', 'www'], ['web.acme.site.example', 'www.acme.site.example']],
    ['no names: only the certificate name', 'web', [], ['web.acme.site.example']],
  ])('%s', (_reason, certificate, names, want) => {
    expect(certificateDnsNames(certificate, zone, names)).toEqual(want);
  });
});
