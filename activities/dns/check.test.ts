import { describe, expect, it } from 'vitest';
import { admits, before47 } from './check.js';

/** How the PowerDNS check reads pdns.conf's ACLs and the version it is told (activities/dns/check.ts). */
describe('allow-axfr-ips as PowerDNS reads it', () => {
  it.each([
    ['127.0.0.0/8,::1', '127.0.0.1', true],
    ['127.0.0.0/8,::1', '::1', true],
    ['127.0.0.0/8 ::1', '192.0.2.54', false],
    ['192.0.2.54', '192.0.2.54', true],
    ['192.0.2.0/24, !192.0.2.54', '192.0.2.54', false],
    ['192.0.2.0/24, !192.0.2.54', '192.0.2.55', true],
    ['2001:db8::/32', '2001:db8::53', true],
    ['', '127.0.0.1', false],
    ['not-an-address, 10.0.0.0/8', '10.1.2.3', true],
  ])('%s admits %s: %s', (acl, address, want) => {
    expect(admits(acl, address)).toBe(want);
  });
});

describe('the version catalog zones need', () => {
  it.each([
    ['4.7.3', false],
    ['4.9.0-beta1', false],
    ['5.0.0', false],
    ['4.6.4', true],
    ['3.4.11', true],
    [undefined, false],
  ])('%s is before 4.7: %s', (version, want) => {
    expect(before47(version)).toBe(want);
  });
});
