import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 47 item 5: a file the README's commands write an API answer to holds secrets (a tenant's
 * token and keys, an enrollment token), and `| tee acme.json` under a usual umask (022) left it
 * readable by every user of the machine. Each such command runs in a `(umask 077; ...)` subshell,
 * and run as the README has it (the call's answer replaced by a stand-in: the shell's part is
 * what makes the mode), it leaves the file 0600.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The commands of the README's sh blocks, one per entry, continuation lines joined. */
const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
  m[1]!
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#')),
);
/** The ones that write a call's answer to a .json file (a redirect or tee). */
const writing = commands.filter((c) => /\bcurl\b/.test(c) && /(\btee\s+|>\s*)[\w.-]+\.json\b/.test(c));
const dir = mkdtempSync(join(tmpdir(), 'readme-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the README's commands that keep an answer in a file", () => {
  it('are found: the tenant, admission and enrollment answers', () => {
    expect(writing.map((c) => /[\w.-]+\.json(?=\)?$)/.exec(c)?.[0])).toEqual(['acme.json', 'beta-admission.json', 'beta.json']);
  });

  it('each runs in a (umask 077; ...) subshell', () => {
    for (const c of writing) expect(c, c).toMatch(/^\(umask 077; .*\)$/);
  });

  it('each, run by sh as written, leaves its file 0600 and the shell its umask', () => {
    for (const c of writing) {
      const file = /[\w.-]+\.json(?=\)?$)/.exec(c)![0];
      // The call's part up to its pipe, replaced by an answer: what is left is the README's shell.
      const line = c.replace(/curl\b[^|]*\|/, `printf '{"api_token":"x"}' |`);
      const umask = execFileSync('sh', ['-c', `umask 022; ${line} >/dev/null; umask`], { cwd: dir, encoding: 'utf8' }).trim();
      expect(statSync(join(dir, file)).mode & 0o777, line).toBe(0o600);
      expect(umask).toBe('0022');
    }
  });
});
