import { closeSync, openSync, readSync } from 'node:fs';

/** More than any file tenantctl reads holds (a secrets file, a token, a signing request): the API takes 64 KB at most. */
export const SMALL_FILE_BYTES = 1 << 20;

/**
 * A file tenantctl reads, as text, of at most 1 MB. Read in chunks up to that bound, so a slip that
 * names a device (`/dev/zero`) or a disk image is refused once the bound is passed, not read until
 * memory runs out, while a pipe (`--token-file <(jq ...)`) is read as a file is. Errors are Node's
 * (`code`), for the caller to word: `EFBIG` past the bound, `EISDIR` for a folder.
 */
export function readSmallFile(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(SMALL_FILE_BYTES + 1);
    let read = 0;
    for (let n = 1; n > 0 && read < buffer.length; read += n) n = readSync(fd, buffer, read, buffer.length - read, null);
    if (read > SMALL_FILE_BYTES) throw Object.assign(new Error(`${path} is larger than 1 MB`), { code: 'EFBIG' });
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
