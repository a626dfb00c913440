import { describe, expect, it } from 'vitest';
import { DNS_LABEL, fqdnOf, vmName, WORKLOAD_NAME } from './workload.js';

describe('workload names (1-20 lowercase alphanumerics or dashes, a DNS label)', () => {
  const rows = [
    { reason: 'one letter', name: 'a', ok: true },
    { reason: 'one digit', name: '7', ok: true },
    { reason: 'letters, digits and an inner dash', name: 'web-01', ok: true },
    { reason: 'twenty characters', name: 'a'.repeat(20), ok: true },
    { reason: 'twenty-one characters', name: 'a'.repeat(21), ok: false },
    { reason: 'empty', name: '', ok: false },
    { reason: 'upper case', name: 'Web', ok: false },
    { reason: 'leading dash', name: '-web', ok: false },
    { reason: 'trailing dash', name: 'web-', ok: false },
    { reason: 'a dot (two labels)', name: 'a.b', ok: false },
    { reason: 'an underscore', name: 'a_b', ok: false },
  ];
  for (const row of rows) it(`${row.ok ? 'accepts' : 'refuses'} ${row.reason}`, () => expect(WORKLOAD_NAME.test(row.name)).toBe(row.ok));
});

describe('record labels (any DNS label)', () => {
  const rows = [
    { reason: 'sixty-three characters', name: 'a'.repeat(63), ok: true },
    { reason: 'sixty-four characters', name: 'a'.repeat(64), ok: false },
    { reason: 'inner dashes', name: 'my--host', ok: true },
    { reason: 'trailing dash', name: 'x-', ok: false },
    { reason: 'a dot', name: 'a.b', ok: false },
  ];
  for (const row of rows) it(`${row.ok ? 'accepts' : 'refuses'} ${row.reason}`, () => expect(DNS_LABEL.test(row.name)).toBe(row.ok));
});

describe('derived names', () => {
  it('the FQDN drops a trailing dot of the zone', () => {
    expect(fqdnOf('web', 'acme.lab.example.')).toBe('web.acme.lab.example');
    expect(fqdnOf('web', 'acme.lab.example')).toBe('web.acme.lab.example');
  });
  it('the VM name carries the tenant, so two tenants never clash in the hypervisor', () => {
    expect(vmName('acme', 'web')).not.toBe(vmName('other', 'web'));
    expect(vmName('acme', 'web')).toBe('acme-web');
  });
});
