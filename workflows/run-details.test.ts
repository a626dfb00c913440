import { describe, expect, it } from 'vitest';
import { parkedDetails } from './run-details.js';

describe("a parked run's current details", () => {
  const until = '2026-11-30T08:00:00.000Z';

  it('lead with the failed step, the backend, its status and its answer, then what the run waits for', () => {
    const text = parkedDetails({
      step: 'state',
      failure: {
        step: 'state',
        activity: 'state.ensure',
        reason: 'BackendFailed',
        backend: 'minio',
        status: 500,
        answer: 'GET /minio/admin/v3/info -> 500 boom',
      },
      until,
      call: 'create',
    });
    expect(text.split('\n')).toEqual([
      '**Step `state` failed** — minio answered 500: GET /minio/admin/v3/info -> 500 boom',
      '',
      `Parked after step \`state\` failed; waiting until ${until} for a repeat of the create, which resumes from that step.`,
    ]);
  });

  it('say what is known when no backend answered', () => {
    const text = parkedDetails({
      step: 'network',
      failure: { step: 'network', reason: 'unknown', answer: 'no answer\nwithin 30 s' },
      until,
      call: 'workload create',
    });
    expect(text.split('\n')[0]).toBe('**Step `network` failed**: no answer within 30 s');
    expect(parkedDetails({ step: 'dns', until, call: 'create' }).split('\n')[0]).toBe('**Step `dns` failed**');
  });

  it('cut a long answer on its first line', () => {
    const first = parkedDetails({ step: 'dns', failure: { step: 'dns', reason: 'x', answer: 'a'.repeat(1000) }, until, call: 'create' }).split('\n')[0]!;
    expect(first.length).toBeLessThan(340);
    expect(first.endsWith('…')).toBe(true);
  });
});
