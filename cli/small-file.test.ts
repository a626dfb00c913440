import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSmallFile, SMALL_FILE_BYTES } from './small-file.js';

const dir = mkdtempSync(join(tmpdir(), 'small-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a file tenantctl reads', () => {
  it('a regular file of up to 1 MB is read whole', () => {
    const path = join(dir, 'csr.pem');
    const text = `-----BEGIN CERTIFICATE REQUEST-----\n${'A'.repeat(SMALL_FILE_BYTES - 80)}\n`;
    writeFileSync(path, text);
    expect(readSmallFile(path)).toBe(text);
  });

  it('a pipe (`--token-file <(jq ...)`) is read as a file is', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    spawn('sh', ['-c', `printf '{"api_token":"t"}' > '${fifo}'`], { stdio: 'ignore' });
    expect(readSmallFile(fifo)).toBe('{"api_token":"t"}');
  });

  it.each([
    ['a device that never ends', () => '/dev/zero', 'EFBIG'],
    ['a folder', () => dir, 'EISDIR'],
    [
      'a file over 1 MB (a disk image named by a slip)',
      () => {
        const path = join(dir, 'disk.img');
        writeFileSync(path, '');
        truncateSync(path, SMALL_FILE_BYTES + 1);
        return path;
      },
      'EFBIG',
    ],
    ['a file that is not there', () => join(dir, 'none'), 'ENOENT'],
  ])('%s: refused at once (%s)', (_case, path, code) => {
    expect(() => readSmallFile(path())).toThrow(expect.objectContaining({ code }));
  });
});
