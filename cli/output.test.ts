import { describe, expect, it } from 'vitest';
import { conditionLine, failureLine, printable, table } from './output.js';

describe('a plan as a person reads it', () => {
  it('an object a run holds says which run and why, in a NOTE column; the others keep theirs', () => {
    const text = table({
      name: 'acme',
      plan: true,
      plan_id: 'plan-AAAAAAAAAAAAAAAA',
      plan_expires_at: '2026-11-29T09:00:00.000Z',
      objects: [
        { area: 'hypervisor', object: 'workload db (vm 10040)', result: 'in-flight', run: 'workload-create/acme/db', note: 'parked after its dns step failed' },
        { area: 'dns', object: 'zone acme.lab.example.', result: 'in-place' },
      ],
    });
    const [head, apply, , columns, first, second] = text.split('\n');
    // Left to its run, it is not among what a reconcile acts on.
    expect(head).toBe('plan plan-AAAAAAAAAAAAAAAA for tenant acme: nothing was changed; applying it would act on 0 of 2 objects');
    expect(apply).toBe('apply it until 2026-11-29T09:00:00.000Z: tenantctl tenant reconcile acme --apply plan-AAAAAAAAAAAAAAAA');
    expect(columns!.split(/\s{2,}/)).toEqual(['AREA', 'OBJECT', 'PLAN', 'FIELDS', 'NOTE']);
    expect(first).toContain('leave (a run holds it)');
    expect(first).toContain('run workload-create/acme/db: parked after its dns step failed');
    expect(second!.split(/\s{2,}/)).toEqual(['dns', 'zone acme.lab.example.', 'keep']);
  });

  it('no NOTE column when nothing is left alone', () => {
    const text = table({ name: 'acme', plan: true, objects: [{ area: 'dns', object: 'zone acme.lab.example.', result: 'corrected', fields: ['NS'] }] });
    expect(text.split('\n')[2]!.split(/\s{2,}/)).toEqual(['AREA', 'OBJECT', 'PLAN', 'FIELDS']);
  });
});

describe('a failed step and a condition as lines a person acts on', () => {
  it.each([
    [
      'a fault after the retries',
      { step: 'dns', activity: 'dns.publish-workload', reason: 'BackendFailed', backend: 'powerdns', status: 503, answer: 'PATCH /zones/x -> 503' },
      'step dns (dns.publish-workload): powerdns answered 503, failed after its retries\n  PATCH /zones/x -> 503',
    ],
    [
      'a refusal on purpose',
      { step: 'network', reason: 'BackendRefused', backend: 'proxmox' },
      'step network: proxmox, refused on purpose: repeating alone will not help',
    ],
    ['no backend answered', { step: 'state', reason: 'BackendFailed' }, 'step state: the backend, failed after its retries'],
  ])('%s', (_why, failure, line) => {
    expect(failureLine(failure)).toBe(line);
  });

  it('a ready object, or one with no condition, prints nothing; a parked one says what to repeat', () => {
    expect(conditionLine({ condition: { ready: true } })).toBeUndefined();
    expect(conditionLine({ name: 'x' })).toBeUndefined();
    expect(
      conditionLine({
        condition: {
          ready: false,
          run: { id: 'workload-create/acme/db', state: 'parked', operation: 'workload-create' },
          since: '2026-11-29T03:00:00.000Z',
          failure: { step: 'dns', reason: 'BackendFailed' },
        },
      }),
    ).toBe(
      'not ready: its run workload-create/acme/db is parked since 2026-11-29T03:00:00.000Z; repeat the workload create to resume\nstep dns: the backend, failed after its retries',
    );
  });
});

// A backend's answer reaches the terminal in a failure's text (step failed: what the backend said).
describe('what tenantctl writes to a terminal obeys no control character', () => {
  it('escape sequences (clear the screen, retitle the window), a carriage return, a C1 control, a bidi override: shown as their code', () => {
    const hostile = 'minio: 500 \u001b[2J\u001b[H ok \u001b]0;owned\u0007 failed\rpassed a\u009bb \u202edeliaf';
    expect(printable(hostile)).toBe('minio: 500 \\u001b[2J\\u001b[H ok \\u001b]0;owned\\u0007 failed\\u000dpassed a\\u009bb \\u202edeliaf');
  });

  it('lines, tabs and any other text as they are', () => {
    expect(printable('step ✓ dns\n\tnext é 名')).toBe('step ✓ dns\n\tnext é 名');
  });
});
