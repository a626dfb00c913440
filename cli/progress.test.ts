import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../client/index.js';
import { ranSteps, watchSteps } from './progress.js';
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

describe("a tenant create's live progress", () => {
  const NAMES = ['dns', 'resolver', 'state', 'network'];
  const at = (t: number) => new Date(Date.UTC(2026, 11, 1, 6, 0, t)).toISOString();
  const steps = (changed: Record<string, { ok: boolean; t: number }>) =>
    NAMES.map((name) => ({ name, ok: changed[name]?.ok ?? true, updated_at: at(changed[name]?.t ?? 0) }));
  /** The tenant as each read finds it, the last one repeated. */
  const api = (reads: ReturnType<typeof steps>[]) => {
    let i = 0;
    return { GET: async () => ({ data: { steps: reads[Math.min(i++, reads.length - 1)] } }) } as unknown as ApiClient;
  };

  it('a ready tenant created again: only the steps this call moved, not every step it held passed before', async () => {
    const lines: string[] = [];
    const before = steps({});
    const during = steps({ dns: { ok: true, t: 10 }, resolver: { ok: true, t: 11 } });
    const watcher = await watchSteps(api([before, during]), 'acme', (l) => lines.push(l), 5);
    await new Promise((r) => setTimeout(r, 30));
    await watcher.finish({
      error: 'backend step "state" failed',
      tenant: { steps: steps({ dns: { ok: true, t: 10 }, resolver: { ok: true, t: 11 }, state: { ok: false, t: 12 } }) },
    });
    expect(lines).toEqual(['  ✓ dns', '  ✓ resolver', '  ✗ state failed']);
  });

  it('a new tenant (nothing to read before): each step as it passes', async () => {
    const lines: string[] = [];
    const none = { GET: async () => ({ error: { error: 'tenant not found' } }) } as unknown as ApiClient;
    const watcher = await watchSteps(none, 'acme', (l) => lines.push(l), 5);
    await watcher.finish({ steps: steps({}) });
    expect(lines).toEqual(NAMES.map((n) => `  ✓ ${n}`));
  });
});
