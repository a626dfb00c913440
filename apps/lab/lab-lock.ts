import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One lab per lab directory. A second `npm start` on the same `.lab/` would start a second Temporal
 * server on the same SQLite history, PowerDNS and Kea on the same data, and with `--fresh` remove
 * the files and drop the database under the lab that runs: it is refused at once, naming the lab
 * that holds the folder. A pid file left by a lab that was killed is taken over.
 */
export class LabDirInUse extends Error {}

export function holdLabDir(labDir: string): void {
  const file = join(labDir, 'lab.pid');
  for (let tries = 0; ; tries++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 3) throw e;
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (isLab(holder)) {
      throw new LabDirInUse(
        `a lab is already running from ${labDir} (pid ${holder}): stop it first (Ctrl-C in its terminal, or kill -INT ${holder}), ` +
          'or start another beside it with its own LAB_DIR, LAB_DATABASE, LISTEN_ADDRESS and TEMPORAL_UI_PORT (README)',
      );
    }
    rmSync(file, { force: true });
  }
  process.on('exit', () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // gone already
    }
  });
}

/** Whether `pid` is a live lab (not a process that took a dead lab's pid since). */
function isLab(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('apps/lab/main');
  } catch {
    return true; // no /proc: the live pid is taken for the lab
  }
}
