import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdLabDir, LabDirInUse } from './lab-lock.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A lab folder whose pid file names `pid`. */
function folderHeldBy(pid: number | string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lab-lock-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'lab.pid'), `${pid}\n`);
  return dir;
}

/** A live process; with `asLab`, one whose command line is a lab's (`apps/lab/main.ts`). */
async function live(asLab: boolean): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', ...(asLab ? ['apps/lab/main.ts'] : [])], { stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => child.once('spawn', r));
  return child.pid!;
}

describe('one lab per lab folder', () => {
  it('a live lab holds its folder: refused, naming its pid, and the file left as it was', async () => {
    const pid = await live(true);
    const dir = folderHeldBy(pid);
    expect(() => holdLabDir(dir)).toThrow(LabDirInUse);
    expect(() => holdLabDir(dir)).toThrow(`a lab is already running from ${dir} (pid ${pid})`);
    expect(readFileSync(join(dir, 'lab.pid'), 'utf8').trim()).toBe(String(pid));
  });

  it.each([
    ['a lab that was killed (its pid gone)', async () => 2 ** 22 + 12_345],
    ['a pid another program took since', () => live(false)],
    ['a file that names no pid', async () => 'garbage'],
  ])('%s: the folder is taken over', async (_case, holder) => {
    const dir = folderHeldBy(await holder());
    holdLabDir(dir);
    expect(readFileSync(join(dir, 'lab.pid'), 'utf8').trim()).toBe(String(process.pid));
  });
});
