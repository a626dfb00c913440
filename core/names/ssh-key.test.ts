import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sshKeyProblem } from './ssh-key.js';

// Real keys of each type, made by ssh-keygen (scripts/setup.sh installs it: the Proxmox simulator
// checks keys with it as PVE does), and blobs crafted around them.
const dir = mkdtempSync(join(tmpdir(), 'ssh-key-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function generated(type: string, bits?: number): string {
  const file = join(dir, `${type}-${bits ?? 0}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-C', 'user@host', '-f', file]);
  return readFileSync(`${file}.pub`, 'utf8').trim();
}

/** An SSH wire-format blob of these strings (RFC 4251 §5: each a uint32 length, then its bytes), base64. */
function blob(...parts: (string | Uint8Array)[]): string {
  return Buffer.concat(
    parts.flatMap((p) => {
      const bytes = typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return [length, bytes];
    }),
  ).toString('base64');
}
/** The parts of a real key's blob. */
function partsOf(line: string): Buffer[] {
  const buf = Buffer.from(line.split(' ')[1]!, 'base64');
  const out: Buffer[] = [];
  for (let at = 0; at < buf.length;) {
    const n = buf.readUInt32BE(at);
    out.push(buf.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return out;
}
/** An odd RSA modulus of `bits` bits (ssh-keygen will not make one under 1024). */
function modulus(bits: number): Uint8Array {
  const n = randomBytes(bits / 8);
  n[0]! |= 0x80;
  n[n.length - 1]! |= 1;
  return Buffer.concat([Buffer.from([0]), n]);
}

const ed = generated('ed25519');
const rsa = generated('rsa', 3072);
const ec256 = generated('ecdsa', 256);
const ec384 = generated('ecdsa', 384);
const ec521 = generated('ecdsa', 521);
const dsa = generated('dsa');
const [, edKey] = partsOf(ed) as [Buffer, Buffer];
const [, curve, point] = partsOf(ec256) as [Buffer, Buffer, Buffer];
const offCurve = Buffer.from(point);
offCurve[offCurve.length - 1]! ^= 1;
const e65537 = Buffer.from([1, 0, 1]);
const { publicKey: spki } = generateKeyPairSync('ed25519');
const otherEd = spki.export({ format: 'jwk' }).x!;

const ROWS: [string, string, boolean][] = [
  ['an Ed25519 key as ssh-keygen writes it', ed, true],
  ['an RSA 3072 key', rsa, true],
  ['an ECDSA P-256 key', ec256, true],
  ['an ECDSA P-384 key', ec384, true],
  ['an ECDSA P-521 key', ec521, true],
  ['a DSA key', dsa, true],
  ['a key with no comment', ed.split(' ').slice(0, 2).join(' '), true],
  ['a comment with spaces', `${ed.split(' ').slice(0, 2).join(' ')} my laptop key`, true],
  ['another Ed25519 key, crafted', `ssh-ed25519 ${blob('ssh-ed25519', Buffer.from(otherEd, 'base64url'))}`, true],
  ['an RSA key of 1024 bits, the least OpenSSH reads', `ssh-rsa ${blob('ssh-rsa', e65537, modulus(1024))}`, true],
  ['a security-key Ed25519 key', `sk-ssh-ed25519@openssh.com ${blob('sk-ssh-ed25519@openssh.com', edKey, 'ssh:')}`, true],
  ['a security-key ECDSA key', `sk-ecdsa-sha2-nistp256@openssh.com ${blob('sk-ecdsa-sha2-nistp256@openssh.com', curve, point, 'ssh:')}`, true],
  ['key data too short to be a key', 'ssh-ed25519 AAAA', false],
  ['key data of another type than named', `ssh-rsa ${ed.split(' ')[1]}`, false],
  ['an Ed25519 key of 31 bytes', `ssh-ed25519 ${blob('ssh-ed25519', edKey.subarray(1))}`, false],
  ['bytes after the key', `ssh-ed25519 ${blob('ssh-ed25519', edKey, 'x')}`, false],
  ['an RSA key of 512 bits', `ssh-rsa ${blob('ssh-rsa', e65537, modulus(512))}`, false],
  ['an ECDSA point off its curve', `ecdsa-sha2-nistp256 ${blob('ecdsa-sha2-nistp256', curve, offCurve)}`, false],
  ['an ECDSA key naming another curve', `ecdsa-sha2-nistp256 ${blob('ecdsa-sha2-nistp256', 'nistp384', point)}`, false],
  ['a security key without its application', `sk-ssh-ed25519@openssh.com ${blob('sk-ssh-ed25519@openssh.com', edKey)}`, false],
  ['a type OpenSSH does not read', `ssh-foo ${blob('ssh-foo', edKey)}`, false],
  ['key data cut short', `ssh-rsa ${rsa.split(' ')[1]!.slice(0, 200)}`, false],
  ['key data that is not base64', 'ssh-ed25519 AAAAC', false],
  ['a type alone', 'ssh-ed25519', false],
  ['two spaces after the type', `ssh-ed25519  ${ed.split(' ')[1]}`, false],
];

/** What `ssh-keygen -l` (what PVE runs on each key) says of a line: true when it reads a key. */
function keygenReads(line: string): boolean {
  return spawnSync('ssh-keygen', ['-l', '-f', '-'], { input: `${line}\n` }).status === 0;
}

describe('sshKeyProblem: the key data is a key of its type, as ssh-keygen reads it', () => {
  it.each(ROWS)('%s', (_case, line, valid) => {
    const problem = sshKeyProblem(line);
    expect(problem === undefined, problem ?? 'no problem found').toBe(valid);
  });

  // Only where the two are meant to agree: the API asks the type first (no options prefix), so
  // "two spaces" is the API's own refusal and the one row where ssh-keygen, which splits on any
  // run of blanks, reads the key.
  it.each(ROWS.filter(([c]) => c !== 'two spaces after the type'))('agrees with ssh-keygen -l: %s', (_case, line, valid) => {
    expect(keygenReads(line)).toBe(valid);
  });
});
