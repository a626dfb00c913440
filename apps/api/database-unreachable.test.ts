import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from './errors.js';

const pgError = (code: string) => Object.assign(new Error(`postgres said ${code}`), { code });

describe('isDatabaseUnreachable: the registry away is a 503, a query the registry refuses is not', () => {
  it.each([
    ['ECONNREFUSED', true],
    ['CONNECTION_CLOSED', true],
    ['08006', true], // connection_failure
    ['08P01', true], // protocol_violation, class 08
    ['57P01', true], // admin_shutdown
    ['57P03', true], // cannot_connect_now: starting up
    ['57014', true], // statement_timeout
    ['3D000', true], // the registry's database does not exist (dropped)
    ['23505', false], // unique_violation: the service's own conflict
    ['42P01', false], // undefined_table: a missing migration is a bug, not an outage
    ['22001', false],
  ])('%s → %s', (code, unreachable) => {
    expect(isDatabaseUnreachable(pgError(code))).toBe(unreachable);
    expect(isDatabaseUnreachable(new Error('wrapped', { cause: pgError(code) }))).toBe(unreachable);
  });
});
