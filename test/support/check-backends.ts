import { execFile } from 'node:child_process';
import { inject } from 'vitest';

/**
 * `worker --check-backends` as the operator runs it: the built worker, the site's environment, no
 * database (DATABASE_URL points nowhere) and no Temporal. Its exit code and what it printed.
 */
export function runCheckBackends(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [inject('entryBundles').worker, '--check-backends'],
      {
        env: { PATH: process.env.PATH ?? '', OPERATOR_TOKEN: 'op-check-backends-0123456789', DATABASE_URL: 'postgres://nobody:none@127.0.0.1:1/none', ...env },
        timeout: 60_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
