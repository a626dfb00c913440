/**
 * Real PowerDNS servers for tests, and the real DNS clients (bind9-dnsutils) that check what a
 * tenant would see. The launchers live with the lab, which starts the same servers.
 */
import { execFile } from 'node:child_process';

export { startPowerDns, startRecursor, type RunningDnsServer, type PowerDnsOptions, type RecursorOptions } from '../../apps/lab/servers/pdns.js';

export interface DigAnswer {
  /** `NOERROR`, `NXDOMAIN`, `SERVFAIL`, `REFUSED`, ... */
  status: string;
  /** Answer-section data of the asked type, e.g. `['10.128.1.10']`. */
  answers: string[];
}

/** `dig @127.0.0.1 -p <port> <name> <type>`, parsed. */
export async function dig(port: number, name: string, type = 'A', extra: string[] = []): Promise<DigAnswer> {
  const out = await run('dig', ['@127.0.0.1', '-p', String(port), '+tries=1', '+time=2', '+noad', ...extra, name, type]);
  const status = /status: ([A-Z]+)/.exec(out.stdout)?.[1] ?? 'NO-ANSWER';
  const answers: string[] = [];
  let inAnswer = false;
  for (const line of out.stdout.split('\n')) {
    if (line.startsWith(';; ANSWER SECTION')) {
      inAnswer = true;
      continue;
    }
    if (inAnswer && (line.trim() === '' || line.startsWith(';;'))) inAnswer = false;
    if (!inAnswer) continue;
    const f = line.split(/\s+/);
    if (f[3]?.toUpperCase() === type.toUpperCase()) answers.push(f.slice(4).join(' '));
  }
  return { status, answers };
}

export interface NsupdateResult {
  ok: boolean;
  /** What nsupdate printed on failure, e.g. `update failed: REFUSED`. */
  output: string;
}

/**
 * Send an RFC 2136 update signed with `key` (`hmac-sha256:<name>:<base64 secret>`; undefined
 * sends it unsigned) to 127.0.0.1:<port>. `commands` are nsupdate lines such as
 * `update add x.zone. 60 A 10.0.0.1`.
 */
export async function nsupdate(port: number, zone: string, key: string | undefined, commands: string[]): Promise<NsupdateResult> {
  const script = [`server 127.0.0.1 ${port}`, `zone ${zone}`, ...commands, 'send', ''].join('\n');
  const out = await run('nsupdate', ['-t', '5', ...(key ? ['-y', key] : [])], script);
  return { ok: out.code === 0, output: (out.stdout + out.stderr).trim() };
}

function run(cmd: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { timeout: 15_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      if (err && code === -1 && !stdout && !stderr) return reject(err);
      resolve({ code, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
