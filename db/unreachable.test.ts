import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BackendError } from '../core/backend-outcome.js';
import { isDriverConnectionLost, isRegistryQueryUnreachable, isRegistryUnreachable } from './unreachable.js';

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

describe('isDriverConnectionLost (a step) and isRegistryUnreachable (a registry activity)', () => {
  const backend = (cause: Error) => Object.assign(new BackendError('proxmox', 'unreachable', true), { cause });
  it.each([
    ['a query whose connection was reset', new DrizzleQueryError('select 1', [], coded('ECONNRESET')), true, true],
    ["a transaction's BEGIN on a lost connection (unwrapped)", coded('CONNECTION_CLOSED'), true, true],
    ['the connect refused, unwrapped', coded('ECONNREFUSED'), false, true],
    ["a backend's connection refused, wrapped by its adapter", backend(coded('ECONNREFUSED')), false, false],
    ["a backend's, with the driver's code inside", backend(coded('CONNECTION_CLOSED')), false, false],
    ['a unique violation', new DrizzleQueryError('insert', [], coded('23505')), false, false],
    ['anything else', new Error('boom'), false, false],
  ] as const)('%s', (_why, err, inStep, inRegistryActivity) => {
    expect(isDriverConnectionLost(err)).toBe(inStep);
    expect(isRegistryUnreachable(err)).toBe(inRegistryActivity);
  });
});
