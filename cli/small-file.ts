import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** More than any file tenantctl reads holds (a secrets file, a token, a signing request): the API takes 64 KB at most. */
export const SMALL_FILE_BYTES = 1 << 20;

/**
 * A file tenantctl reads, as text: a regular file of at most 1 MB. A slip that names a device
 * (`/dev/zero`), a pipe that never ends or a disk image is refused at once, not read until memory
 * runs out. Errors are Node's (`code`), for the caller to word: `ENOTREG` and `EFBIG` for these two.
 */
export function readSmallFile(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
    if (stat.size > SMALL_FILE_BYTES) throw Object.assign(new Error(`${path} is larger than 1 MB`), { code: 'EFBIG' });
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
