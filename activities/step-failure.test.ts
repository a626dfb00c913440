import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { stopIfCancelled } from './step-failure.js';

describe('stopIfCancelled', () => {
  it('an attempt cancelled while it waited (its heartbeat timed out) stops before its write', async () => {
    const env = new MockActivityEnvironment();
    let wrote = false;
    const attempt = env.run(async () => {
      // Queued for the fabric: the wait outlives the attempt, and the write would come after it.
      await new Promise((r) => setTimeout(r, 50));
      stopIfCancelled();
      wrote = true;
    });
    env.cancel('TIMED_OUT');
    await expect(attempt).rejects.toThrow(/cancelled \(TIMED_OUT\) and writes nothing more/);
    expect(wrote).toBe(false);
  });

  it('an attempt still wanted goes on, and outside an activity (the bench) nothing is checked', async () => {
    const env = new MockActivityEnvironment();
    await expect(env.run(async () => (stopIfCancelled(), 'wrote'))).resolves.toBe('wrote');
    expect(() => stopIfCancelled()).not.toThrow();
  });
});
