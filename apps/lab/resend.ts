const BEFORE_ANSWER = new Set(['ECONNRESET', 'ECONNREFUSED']);

/**
 * Sends again, at most 3 attempts in all, when the connection was refused or reset before any
 * answer: while Caddy replaces its admin or log server after a config change, a new connection can
 * meet the old listener's close. A refused connection carried no request, so it is sent again
 * whatever it is; a reset one only where `resend` says so: a write met by a reset may have been
 * applied, and its caller decides.
 */
export async function resendBeforeAnswer<T>(send: () => Promise<T>, resend: boolean, pauseMs: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      const code = String((e as NodeJS.ErrnoException).code);
      const unsent = code === 'ECONNREFUSED';
      if (attempt >= 3 || !BEFORE_ANSWER.has(code) || !(resend || unsent)) throw e;
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  }
}
