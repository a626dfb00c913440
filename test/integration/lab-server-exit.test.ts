import { afterEach, expect, it, vi } from 'vitest';
import { startRecursor } from '../support/pdns.js';

afterEach(() => vi.restoreAllMocks());

/**
 * A lab server that dies under a running site says so, with its last lines (a CI run's check met a
 * Recursor whose API refused, and nothing said why). A stop the lab asked for says nothing.
 */
it('reports a Recursor that exits unasked, with its exit and its API, and stays silent on a stop', async () => {
  // Kept from the suite's output: a reader of a run's log would chase this report as a real death.
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const killed = await startRecursor();
  const stopped = await startRecursor();
  process.kill(killed.pid, 'SIGKILL');
  await stopped.stop();
  await vi.waitFor(
    () => expect(written.join('')).toMatch(/pdns_recursor \(pid \d+, API http:\/\/127\.0\.0\.1:\d+\/api\/v1\) exited unexpectedly \(SIGKILL\)/),
    { timeout: 10_000 },
  );
  const reports = written.filter((w) => w.includes('exited unexpectedly'));
  expect(reports).toHaveLength(1);
  expect(reports[0]).toContain(`pid ${killed.pid}`);
  expect(reports[0]).toContain(killed.apiUrl);
  await killed.stop();
});
