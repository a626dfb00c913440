import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

/**
 * Where the suite's CPU goes, per file (issue 29 item 8): the test process's own CPU while the
 * file runs, plus that of the processes it started and reaped (the worker and API processes, the
 * real DNS servers, schemathesis). The shared Temporal server is not counted: it serves every file
 * at once. A pool process runs its files in turn (`isolate: false`), so the delta is this file's.
 * The summary reporter prints the files that cost the most.
 */
declare module 'vitest' {
  interface TaskMeta {
    cpuMs?: number;
  }
}

/** utime + stime + cutime + cstime of this process, in ms (/proc/self/stat, clock ticks of 10 ms). */
function cpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 of proc(5), counted from the state field (3): indexes 11-14 here.
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
}

let started = 0;
beforeAll(() => {
  started = cpuMs();
});
// The file's suite is the hook's second argument (vitest 4 parses the first as fixtures).
// eslint-disable-next-line no-empty-pattern
afterAll(({}, suite) => {
  suite.meta.cpuMs = cpuMs() - started;
});
