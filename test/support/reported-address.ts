import type { ChildProcess } from 'node:child_process';

/** The API's line saying where it listens (apps/api/main.ts). */
export const API_LISTENING = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"api listening"/;
/** The worker's line saying where its metrics listen (apps/worker/run.ts; at info). */
export const WORKER_METRICS_LISTENING = /"url":"(http:\/\/127\.0\.0\.1:\d+\/metrics)"[^\n]*"msg":"worker metrics listening"/;

/**
 * The address a child process says it bound: it listens on port 0 and logs where, and this is the
 * first capture of `pattern` in its stdout or stderr. No port is picked for it beforehand, which
 * another process could take before the child binds it. Rejects, with what the child wrote, when it
 * exits first or says nothing in `timeoutMs`.
 */
export function reportedAddress(child: ChildProcess, pattern: RegExp, opts: { timeoutMs?: number; onOutput?: (text: string) => void } = {}): Promise<string> {
  let output = '';
  let done = false;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`no address reported in ${opts.timeoutMs ?? 30_000} ms:\n${output.slice(-2000)}`)),
      opts.timeoutMs ?? 30_000,
    );
    const exited = (code: number | null, signal: string | null) =>
      finish(new Error(`exited (${code ?? signal}) before it reported an address:\n${output.slice(-2000)}`));
    const keep = (d: Buffer) => {
      const text = d.toString();
      opts.onOutput?.(text);
      if (done) return;
      output += text;
      const found = pattern.exec(output)?.[1];
      if (found !== undefined) finish(found);
    };
    function finish(answer: string | Error) {
      done = true;
      clearTimeout(timer);
      child.off('exit', exited);
      if (typeof answer === 'string') resolve(answer);
      else reject(answer);
    }
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', exited);
  });
}
