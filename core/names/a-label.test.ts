import { describe, expect, it } from 'vitest';
import { aLabelReason } from './a-label.js';
import { BrokerAccountRequest } from '../../apps/api/schemas/broker-account.js';
import { CertificateParams } from '../../apps/api/schemas/certificate.js';
import { DeviceName } from '../../apps/api/schemas/device.js';
import { RecordLabel } from '../../apps/api/schemas/record.js';
import { WorkloadName } from '../../apps/api/schemas/workload.js';

describe('aLabelReason (an xn-- label must be an IDNA A-label)', () => {
  it.each([
    ['a label without xn--', 'www', null],
    ['bücher', 'xn--bcher-kva', null],
    ['münchen', 'xn--mnchen-3ya', null],
    ['Cyrillic', 'xn--d1acufc', null],
    ['not punycode', 'xn--abc', /valid punycode/],
    ['not punycode, with an inner dash', 'xn--a-ecp', /valid punycode/],
    ['xn-- and nothing', 'xn--', /valid punycode/],
    ['decodes to ASCII only (not an A-label)', 'xn--abc-', /valid punycode/],
    ['a reserved label: dashes in positions 3 and 4, not xn--', 'ab--cd', /reserved \(RFC 5890\)/],
    ['reserved too with a digit', 'a1--x', /reserved/],
    ['dashes elsewhere are fine', 'a--b', null],
    ['and at 4 and 5', 'abc--d', null],
  ])('%s: %j', (_case, label, want) => {
    const got = aLabelReason(label);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatch(want);
  });
});

// Issue 27 item 7: every name published or certified as a DNS label refuses what "one DNS label" excludes.
describe('the API schemas of DNS labels', () => {
  const schemas = {
    workload: (v: string) => WorkloadName.safeParse(v),
    device: (v: string) => DeviceName.safeParse(v),
    record: (v: string) => RecordLabel.safeParse(v),
    certificate: (v: string) => CertificateParams.safeParse({ t: 'acme', certificate: v }),
    'broker account device': (v: string) => BrokerAccountRequest.safeParse({ name: 'gw', device: v, publish: ['a'], subscribe: [] }),
  };
  it.each(Object.keys(schemas))('%s', (which) => {
    const parse = schemas[which as keyof typeof schemas];
    for (const ok of ['web', 'web-1', 'xn--bcher-kva']) expect(parse(ok).success, ok).toBe(true);
    for (const bad of ['web-', '-web', 'xn--abc', 'xn--a-ecp', 'ab--cd']) {
      const r = parse(bad);
      expect(r.success, bad).toBe(false);
    }
    const r = parse('xn--zz');
    expect(r.error?.issues[0]?.message).toMatch(/valid punycode/);
  });
});
