import { describe, expect, it } from 'vitest';
import { resendBeforeAnswer } from './resend.js';

function failing(codes: (string | undefined)[]): { send: () => Promise<string>; attempts: () => number } {
  let n = 0;
  return {
    send: async () => {
      const code = codes[n++];
      if (n > codes.length) return 'answered';
      throw Object.assign(new Error(`attempt ${n}`), { code });
    },
    attempts: () => n,
  };
}

describe('resendBeforeAnswer', () => {
  it.each([
    { codes: ['ECONNRESET'], resend: true, outcome: 'answered', attempts: 2 },
    { codes: ['ECONNREFUSED', 'ECONNRESET'], resend: true, outcome: 'answered', attempts: 3 },
    { codes: ['ECONNRESET', 'ECONNRESET', 'ECONNRESET'], resend: true, outcome: 'attempt 3', attempts: 3 },
    { codes: ['ECONNRESET'], resend: false, outcome: 'attempt 1', attempts: 1 },
    // A refused connection carried no request: a write too is sent again (a CI run: Caddy's admin
    // DELETE refused while Caddy replaced its admin server came back through the proxy as a 500).
    { codes: ['ECONNREFUSED'], resend: false, outcome: 'answered', attempts: 2 },
    { codes: ['ECONNREFUSED', 'ECONNRESET'], resend: false, outcome: 'attempt 2', attempts: 2 },
    { codes: ['ETIMEDOUT'], resend: true, outcome: 'attempt 1', attempts: 1 },
    { codes: [undefined], resend: true, outcome: 'attempt 1', attempts: 1 },
  ])('$codes, resend $resend: $outcome after $attempts attempt(s)', async ({ codes, resend, outcome, attempts }) => {
    const call = failing(codes);
    const got = await resendBeforeAnswer(call.send, resend, 1).catch((e: Error) => e.message);
    expect(got).toBe(outcome);
    expect(call.attempts()).toBe(attempts);
  });
});
