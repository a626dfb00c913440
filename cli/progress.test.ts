import { describe, expect, it } from 'vitest';
import { ranSteps } from './progress.js';
import { stepsHeader } from '../apps/api/middleware/run-headers.js';

describe("tenantctl reads a run's Run-Steps header", () => {
  it.each([
    ['no header', null, []],
    ['one passed step', 'dns.ensure=ok', [{ activity: 'dns.ensure', ok: true }]],
    [
      'passed then failed, in order',
      'dns.check-name=ok, hypervisor.ensure-vm=failed',
      [
        { activity: 'dns.check-name', ok: true },
        { activity: 'hypervisor.ensure-vm', ok: false },
      ],
    ],
    ['a part that is no step activity is left out', 'dns.ensure=ok, <script>=ok, x=failed, dns.ensure=maybe', [{ activity: 'dns.ensure', ok: true }]],
    ['terminal escapes are never printed', '\u001b[2Jdns.ensure=ok', []],
  ])('%s', (_reason, header, want) => {
    expect(ranSteps(header)).toEqual(want);
  });

  it('reads back what the API writes', () => {
    const steps = [
      { activity: 'device-address.prepare', ok: true },
      { activity: 'device-address.apply', ok: false },
    ];
    expect(ranSteps(stepsHeader(steps))).toEqual(steps);
  });
});
