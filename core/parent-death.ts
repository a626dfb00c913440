import { existsSync } from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';

/**
 * The command line that starts `command` so that it ends when this process does, however this one
 * ends: a hook on `exit` does not run when a process is SIGKILLed (vitest ends a fork whose teardown
 * hung that way), and a crashed test run left its PowerDNS, Recursor, Kea, Caddy and Mosquitto
 * running. On Linux, util-linux's `setpriv --pdeathsig TERM` asks the kernel to send the server
 * SIGTERM when its parent ends, then execs it: the same pid, so the checks of who listens on a port
 * still name it. Elsewhere, or without setpriv, the command as it is.
 */
export function endingWithParent(command: string, args: readonly string[]): [string, string[]] {
  if (process.platform !== 'linux' || !existsSync(SETPRIV)) return [command, [...args]];
  return [SETPRIV, ['--pdeathsig', 'TERM', '--', command, ...args]];
}
