import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from './args.js';

describe('parseCommandLine', () => {
  it.each([
    ['a command with its flags', ['record', 'put', 'acme', 'r1', '--address', '10.128.1.5'], undefined],
    ['a flag of many values, repeated', ['workload', 'create', 'acme', 'w', '--ssh-key', 'a', '--ssh-key', 'b'], undefined],
    ['a boolean flag twice', ['tenant', 'reconcile', 'acme', '--plan', '--plan'], undefined],
    [
      'a flag of one value, twice',
      ['record', 'put', 'acme', 'r1', '--address', '10.128.1.5', '--address', '10.128.1.6'],
      '--address given twice; it takes one value',
    ],
    [
      'a secret flag twice: its values are not echoed',
      ['wifi-key', 'create', 'acme', 'k', '--psk', 'secret-one', '--psk=secret-two'],
      '--psk given twice; it takes one value',
    ],
    ['a whole number that is not one, whatever the command', ['workload', 'create', 'acme', 'w', '--cores', 'many'], '--cores must be a whole number'],
    ['a negative limit', ['tenant', 'runs', 'acme', '--limit=-1'], '--limit must be a whole number'],
    ['an unknown flag', ['tenant', 'reconcile', 'acme', '--prnue'], /^Unknown option '--prnue'/],
  ] as [string, string[], string | RegExp | undefined][])('%s', (_case, argv, refusal) => {
    const parse = () => parseCommandLine(argv);
    if (refusal === undefined) expect(parse).not.toThrow();
    else expect(parse).toThrow(refusal instanceof RegExp ? refusal : new UsageError(refusal));
  });

  it('keeps every value of a flag of many values, in order', () => {
    expect(parseCommandLine(['x', '--publish', 'a/#', '--publish', 'b/#']).flags.publish).toEqual(['a/#', 'b/#']);
  });
});
