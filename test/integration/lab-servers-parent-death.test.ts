import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';

/**
 * The lab's real servers end with the process that started them, also when it is SIGKILLed and
 * its `exit` hook never runs (core/parent-death.ts): a fork vitest killed after a hung teardown
 * left PowerDNS, Recursor, Kea, Caddy and Mosquitto running (a CI run of 2026-11-30), and a killed
 * `npm start` left its Temporal dev server.
 */
const STARTER = `
import { readFileSync, readdirSync } from 'node:fs';
import { startMosquitto } from ${JSON.stringify(resolve('apps/lab/servers/mosquitto.ts'))};
import { startPowerDns } from ${JSON.stringify(resolve('apps/lab/servers/pdns.ts'))};
import { startDevServer } from ${JSON.stringify(resolve('temporal/dev-server.ts'))};
await startMosquitto();
await startPowerDns();
await startDevServer({ projectRoot: ${JSON.stringify(resolve('.'))} });
const children = readdirSync('/proc/self/task').flatMap((t) => readFileSync('/proc/self/task/' + t + '/children', 'utf8').trim().split(' ').filter(Boolean));
console.log(JSON.stringify({ children: children.map(Number) }));
setInterval(() => {}, 1000);
`;

/** The process's state letter (`Z` for a zombie nobody reaped), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0];
  } catch {
    return undefined;
  }
}
const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';

describe('the lab servers of a process that is SIGKILLed', () => {
  it('end with it: Mosquitto, PowerDNS and the Temporal dev server', async () => {
    // What the servers keep on disk (their folders, the sockets' folders) is removed by their stop,
    // which a SIGKILL never runs: made under a folder of the test's own, removed after.
    const scratch = mkdtempSync(join(tmpdir(), 'parent-death-'));
    const starter = spawn(resolve('node_modules/.bin/node'), ['--import', 'tsx', '--input-type=module', '-e', STARTER], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TMPDIR: scratch },
    });
    const line = await new Promise<string>((done, fail) => {
      createInterface({ input: starter.stdout! }).once('line', done);
      starter.once('exit', (code) => fail(new Error(`the starter exited (${code})`)));
    });
    // Beside them, tsx's own esbuild service, which is not a lab server.
    const children = (JSON.parse(line) as { children: number[] }).children.filter((pid) => /(mosquitto|pdns_server|temporal)$/.test(commandOf(pid)));
    expect(children.map(commandOf)).toHaveLength(3);
    expect(children.map(commandOf)).toEqual(expect.arrayContaining(['/usr/sbin/mosquitto', '/usr/sbin/pdns_server', expect.stringMatching(/temporal$/)]));
    starter.kill('SIGKILL');
    try {
      await waitFor(() => children.every((pid) => [undefined, 'Z'].includes(stateOf(pid))), 15_000);
    } finally {
      // Left behind when this fails: not for the next test run to find.
      for (const pid of children) if (stateOf(pid) && stateOf(pid) !== 'Z') process.kill(pid, 'SIGKILL');
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 90_000);
});
