import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** openssl with `args` in `dir`, answering what it printed; rejects when it fails. */
export async function opensslIn(dir: string, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await run('openssl', args, { cwd: dir });
  return stdout + stderr;
}

/**
 * A signing request made by `openssl req` in `dir` (`<name>.csr`, its new key `<name>.key`;
 * `newkey` the key's options), asking for a hostile subject and names, evil.example and a wildcard
 * under `domain`: an issuer must ignore them.
 */
export async function hostileCsr(dir: string, name: string, newkey: string[], domain: string, extra: string[] = []): Promise<{ csr: string; key: string }> {
  await opensslIn(
    dir,
    'req',
    '-new',
    ...newkey,
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-subj',
    '/CN=evil.example',
    '-addext',
    `subjectAltName=DNS:evil.example,DNS:*.${domain}`,
    ...extra,
    '-out',
    `${name}.csr`,
  );
  return { csr: await readFile(join(dir, `${name}.csr`), 'utf8'), key: await readFile(join(dir, `${name}.key`), 'utf8') };
}

/** The request with one byte of its DER, the one at `at`, changed and re-armoured: its signature no longer holds. */
export function tamperedCsr(pem: string, at: (der: Buffer) => number): string {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const i = at(der);
  der[i] = der[i]! ^ 0x01;
  return `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE REQUEST-----\n`;
}
