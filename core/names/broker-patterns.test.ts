import { describe, it, expect } from 'vitest';
import { absolutePatterns, MAX_PATTERNS, MAX_PATTERN_LENGTH } from './broker-patterns.js';
import { brokerUsername, tenantUsernamePrefix } from './broker-username.js';

const tenant = 'acme';
const workload = (publish: string[], subscribe: string[]) => ({ tenant, publish, subscribe });
const device = (publish: string[], subscribe: string[]) => ({ tenant, device: 'd1', publish, subscribe });

type Row = [reason: string, input: Parameters<typeof absolutePatterns>[0], publish: string[], subscribe: string[]];

const accepted: Row[] = [
  ['relative patterns get the tenant prefix', workload(['sensors/temp'], ['cmd/+/set']), ['acme/sensors/temp'], ['acme/cmd/+/set']],
  ['rule 1: "#" is the tenant\'s own whole tree', workload([], ['#']), [], ['acme/#']],
  ['rule 1: "#" as last level stays inside the tenant', workload(['a/#'], []), ['acme/a/#'], []],
  ['rule 3: publish may be empty', workload([], ['a']), [], ['acme/a']],
  ['rule 3: subscribe may be empty', workload(['a'], []), ['acme/a'], []],
  ['"+" is allowed as a whole level below the first', workload(['a/+/b'], []), ['acme/a/+/b'], []],
  ['duplicates collapse, first kept', workload(['a', 'b', 'a'], []), ['acme/a', 'acme/b'], []],
  ['rule 4: a workload may subscribe under log/', workload([], ['log/#', 'log/d1', 'log/+']), [], ['acme/log/#', 'acme/log/d1', 'acme/log/+']],
  ['rule 4: a workload may subscribe to "#", log space included', workload([], ['#', '+/status']), [], ['acme/#', 'acme/+/status']],
  [
    'rule 4: a device may publish exactly log/<its device>',
    device(['log/d1', 'telemetry/d1'], ['cmd/d1']),
    ['acme/log/d1', 'acme/telemetry/d1'],
    ['acme/cmd/d1'],
  ],
  ['rule 4: a device may use wildcards below a named first level', device(['data/#'], ['cmd/+/x']), ['acme/data/#'], ['acme/cmd/+/x']],
  ['"log" deeper than the first level is an ordinary level', device(['data/log'], ['x/log/#']), ['acme/data/log'], ['acme/x/log/#']],
  ['level names are case-sensitive: "Log" is not the reserved level', device(['Log/x'], []), ['acme/Log/x'], []],
  ['a "$" inside a level (not first char) is fine', workload(['price/us$'], []), ['acme/price/us$'], []],
  [
    'the limits themselves are accepted',
    workload(
      Array.from({ length: MAX_PATTERNS }, (_, i) => `t${i}`),
      ['x'.repeat(MAX_PATTERN_LENGTH)],
    ),
    Array.from({ length: MAX_PATTERNS }, (_, i) => `acme/t${i}`),
    [`acme/${'x'.repeat(MAX_PATTERN_LENGTH)}`],
  ],
];

type Refusal = [reason: string, input: Parameters<typeof absolutePatterns>[0], message: RegExp];

const refused: Refusal[] = [
  ['rule 2: leading "/"', workload(['/a'], []), /publish pattern "\/a": .*leading "\/"/],
  ['rule 2: $SYS filter', workload([], ['$SYS/#']), /\$SYS/],
  ['rule 2: $SYS anywhere as a level', workload([], ['a/$SYS/#']), /\$SYS/],
  ['rule 2: other broker "$" topics ($CONTROL, $share)', workload(['$CONTROL/dynamic-security/v1'], []), /"\$" topics/],
  ['rule 2: "%" (broker substitution)', workload([], ['a/%u/#']), /"%" is not allowed/],
  ['rule 2: "%" inside a level', workload(['a%c'], []), /"%" is not allowed/],
  ['rule 2: "#" not the last level', workload([], ['#/a']), /"#" must be the last level/],
  ['rule 2: "#" in the middle', workload(['a/#/b'], []), /"#" must be the last level/],
  ['"#" glued to text is not a wildcard', workload([], ['a/b#']), /"#" must be a whole level/],
  ['"+" glued to text is not a wildcard', workload([], ['a/b+']), /"\+" must be a whole level/],
  ['rule 3: both empty', workload([], []), /both be empty/],
  ['empty pattern', workload([''], []), /empty pattern/],
  ['empty level inside', workload(['a//b'], []), /empty topic level/],
  ['trailing "/" is an empty level', workload(['a/'], []), /empty topic level/],
  ['control character', workload(['a\u0000b'], []), /control characters/],
  ['too long', workload(['x'.repeat(MAX_PATTERN_LENGTH + 1)], []), /longer than/],
  [
    'too many',
    workload(
      Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `t${i}`),
      [],
    ),
    /more than/,
  ],
  ['rule 4: a workload may not publish under log/', workload(['log/d1'], []), /workload account may not publish under log\//],
  ['rule 4: a workload may not publish to log itself', workload(['log'], []), /workload account may not publish under log\//],
  ['rule 4: a workload publishing "#" reaches log/', workload(['#'], []), /reaches the reserved log\//],
  ['rule 4: a workload publishing "+/x" reaches log/', workload(['+/x'], []), /reaches the reserved log\//],
  ["rule 4: a device may not publish another device's log", device(['log/d2'], []), /only to log\/d1/],
  ['rule 4: a device may not publish below its log topic', device(['log/d1/x'], []), /only to log\/d1/],
  ['rule 4: a device may not publish to log/+', device(['log/+'], []), /only to log\/d1/],
  ['rule 4: a device may not publish to log/#', device(['log/#'], []), /only to log\/d1/],
  ['rule 4: a device publishing "#" reaches log/ without naming it', device(['#'], []), /reaches the reserved log\//],
  ['rule 4: a device publishing "+/d1" reaches log/', device(['+/d1'], []), /reaches the reserved log\//],
  ['rule 4: a device may not subscribe under log/', device([], ['log/d1']), /device account may not subscribe under log\//],
  ['rule 4: a device may not subscribe to log/#', device([], ['log/#']), /may not subscribe under log\//],
  ['rule 4: a device subscribing "#" reaches log/', device([], ['#']), /reaches the reserved log\//],
  ['rule 4: a device subscribing "+/x" reaches log/', device([], ['+/x']), /reaches the reserved log\//],
  ['a device name that is not one level', { tenant, device: 'a/b', publish: ['x'], subscribe: [] }, /device name/],
  ['a device name with a wildcard', { tenant, device: '+', publish: ['x'], subscribe: [] }, /device name/],
];

describe('broker topic patterns', () => {
  it.each(accepted)('accepts: %s', (_reason, input, publish, subscribe) => {
    expect(absolutePatterns(input)).toEqual({ ok: true, publish, subscribe });
  });

  it.each(refused)('refuses: %s', (_reason, input, message) => {
    const result = absolutePatterns(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(message);
  });

  it('never yields a pattern outside the tenant tree', () => {
    const inputs = [...accepted.map((r) => r[1])];
    for (const input of inputs) {
      const r = absolutePatterns(input);
      if (!r.ok) throw new Error(r.reason);
      for (const p of [...r.publish, ...r.subscribe]) expect(p.startsWith('acme/')).toBe(true);
    }
  });
});

describe('broker usernames', () => {
  it.each([
    ['joins tenant and account with a dash', brokerUsername('acme', 'sensor-1'), 'acme-sensor-1'],
    ['the tenant prefix ends with the dash, so acme- never lists acme2-x', tenantUsernamePrefix('acme'), 'acme-'],
  ])('%s', (_reason, got, want) => {
    expect(got).toBe(want);
  });
});
