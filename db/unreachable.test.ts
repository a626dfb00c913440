import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isRegistryQueryUnreachable } from './unreachable.js';

const coded = (code: string) => Object.assign(new Error(`x ${code}`), { code });

describe('isRegistryQueryUnreachable: the registry away under a query, not a backend away', () => {
  it.each([
    ['a query whose connection was reset', new DrizzleQueryError('select 1', [], coded('ECONNRESET')), true],
    ['a query the server refused while shutting down', new DrizzleQueryError('select 1', [], coded('57P01')), true],
    [
      'the same, wrapped again (a step tagging its failure)',
      new Error('step', { cause: new DrizzleQueryError('select 1', [], coded('CONNECTION_CLOSED')) }),
      true,
    ],
    ['a query the registry refused on purpose (a unique violation)', new DrizzleQueryError('insert', [], coded('23505')), false],
    ["a backend's connection refused, no query of ours", coded('ECONNREFUSED'), false],
    ['anything else', new Error('boom'), false],
  ] as const)('%s', (_why, err, away) => {
    expect(isRegistryQueryUnreachable(err)).toBe(away);
  });
});
